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
