import type { Identity, Permission, Role } from '@app/domain';

/** A console route was reached without a live session (no cookie, logged out, expired, company deleted). */
export class ConsoleSignInRequired extends Error {
  constructor() {
    super('a console session is required');
  }
}

/** A state-changing console request without the session's CSRF token. */
export class ConsoleCsrfRefused extends Error {
  constructor() {
    super('the request carries no valid CSRF token');
  }
}

/**
 * A console page or form the session may not use (the permission or role of its `@ConsolePage`
 * rule): the page says in words who may, not which permission the token lacks.
 */
export class ConsoleAccessRefused extends Error {
  constructor(
    readonly rule: { readonly permission: Permission | null; readonly minRole: Role },
    readonly identity: Identity,
  ) {
    super('the console session may not open this page');
  }
}
