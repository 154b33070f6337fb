import { applyDecorators, SetMetadata } from '@nestjs/common';
import {
  ApiBearerAuth,
  ApiExcludeEndpoint,
  ApiExtension,
  ApiForbiddenResponse,
  ApiUnauthorizedResponse,
} from '@nestjs/swagger';
import type { Permission, Role } from '@app/domain';
import { ProblemDto } from '../http/problem.dto';

export const ACCESS_KEY = 'accounting-api:access';

export interface AccessRule {
  /** The endpoint's permission group; null for routes any valid token may call (whoami). */
  permission: Permission | null;
  minRole: Role;
}

/**
 * Declares, next to the route, what a token needs to call it (docs/api.md §4's permission and
 * minimum-role columns). The guard enforces it; the OpenAPI document shows it as
 * `x-permission` / `x-min-role` and in the operation's security.
 */
export function Access(permission: Permission | null, minRole: Role) {
  return applyDecorators(
    SetMetadata(ACCESS_KEY, { permission, minRole } satisfies AccessRule),
    ApiBearerAuth('gateway'),
    ApiExtension('x-permission', permission ?? 'any'),
    ApiExtension('x-min-role', minRole),
    ApiUnauthorizedResponse({ description: 'invalid_token or token_expired', type: ProblemDto }),
    ApiForbiddenResponse({ description: 'unknown_company, permission_denied or role_insufficient', type: ProblemDto }),
  );
}

/** A console page's rule: the same permission group and minimum role as its API twin, from a session. */
export interface ConsoleRule extends AccessRule {
  console: true;
}

export function isConsoleRule(rule: unknown): rule is ConsoleRule {
  return typeof rule === 'object' && rule !== null && (rule as { console?: unknown }).console === true;
}

/**
 * A web console route: reached with a console session cookie instead of a bearer token. The
 * ConsoleSessionGuard checks the session, the CSRF token of a state-changing request, and then
 * `permission` and `minRole` exactly as the gateway guard would for the token.
 */
export function ConsolePage(permission: Permission | null, minRole: Role) {
  return applyDecorators(
    SetMetadata(ACCESS_KEY, { console: true, permission, minRole } satisfies ConsoleRule),
    ApiExcludeEndpoint(),
  );
}

/** A route outside the token guard (health, metrics, docs, the OAuth callback). */
export function Public() {
  return applyDecorators(SetMetadata(ACCESS_KEY, 'public'), ApiExtension('x-permission', 'public'));
}
