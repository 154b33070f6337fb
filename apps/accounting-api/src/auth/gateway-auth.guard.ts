import { Injectable, type ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { AuthGuard } from '@nestjs/passport';
import { DomainError, roleAtLeast, type Identity } from '@app/domain';
import { ACCESS_KEY, isConsoleRule, type AccessRule, type ConsoleRule } from './access.decorator';
import { GATEWAY_JWT, toIdentity, type VerifiedClaims } from './gateway-jwt.strategy';
import { KnownCompanies } from './known-companies';

/**
 * The global gateway guard: docs/api.md §2's checks in order, the first failure deciding.
 * 1–3 in GatewayJwtStrategy (signature, expiry, claims); here 4 company, 5 permission, 6 role.
 * Routes must declare @Access(...) or @Public(); an undeclared route is refused (fail closed).
 */
@Injectable()
export class GatewayAuthGuard extends AuthGuard(GATEWAY_JWT) {
  constructor(
    private readonly reflector: Reflector,
    private readonly companies: KnownCompanies,
  ) {
    super();
  }

  override async canActivate(context: ExecutionContext): Promise<boolean> {
    const rule = this.reflector.getAllAndOverride<AccessRule | ConsoleRule | 'public' | undefined>(ACCESS_KEY, [
      context.getHandler(),
      context.getClass(),
    ]);
    if (rule === 'public') return true;
    // Console pages authenticate by session (ConsoleSessionGuard), never by bearer token.
    if (isConsoleRule(rule)) return true;
    if (rule === undefined) throw new DomainError('internal_error', 'route declares no access rule');

    await super.canActivate(context); // checks 1–3; throws through handleRequest
    const request = context.switchToHttp().getRequest<{ user: VerifiedClaims; identity?: Identity }>();
    const identity = toIdentity(request.user);

    await checkAccess(this.companies, identity, rule, request.user.listedPermissions);
    request.identity = identity;
    return true;
  }

  override handleRequest<T>(error: unknown, user: T, info: unknown): T {
    if (error instanceof DomainError) throw error;
    if (user) return user;
    const reason = error ?? info;
    if (reason instanceof DomainError) throw reason;
    const message = reason instanceof Error ? reason.message : 'no bearer token';
    throw new DomainError('invalid_token', describe(message));
  }
}

/**
 * Checks 4–6 of contract §2 for a verified identity, shared by the token and the console session:
 * the company exists, the identity holds the route's permission, its role is high enough.
 */
export async function checkAccess(
  companies: KnownCompanies,
  identity: Identity,
  rule: AccessRule,
  listedPermissions: readonly string[] = identity.permissions,
): Promise<void> {
  if (!(await companies.exists(identity.company))) {
    throw new DomainError('unknown_company', `company "${identity.company}" is not known to this service`);
  }
  if (rule.permission !== null && !identity.permissions.includes(rule.permission)) {
    const listed = listedPermissions.includes(rule.permission);
    throw new DomainError(
      'permission_denied',
      listed
        ? `the role ${identity.role} may not hold the permission "${rule.permission}" this endpoint needs`
        : `the token lacks the permission "${rule.permission}" this endpoint needs`,
    );
  }
  if (!roleAtLeast(identity.role, rule.minRole)) {
    throw new DomainError('role_insufficient', `this operation needs the role ${rule.minRole} or higher`);
  }
}

/** Short, safe reasons: never echo the token itself. */
function describe(message: string): string {
  if (/no auth token/i.test(message)) return 'the request carries no bearer token';
  if (/invalid signature/i.test(message)) return 'the token signature does not verify';
  if (/jwt malformed|invalid token|unexpected token/i.test(message)) return 'the token is not a well-formed JWT';
  if (/invalid algorithm|not an RS256/i.test(message)) return 'the token is not signed with RS256';
  return message.length > 200 ? 'the token is not valid' : message;
}
