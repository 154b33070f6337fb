import { Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request } from 'express';
import type { Identity } from '@app/domain';
import { ConsoleAccess } from '@app/application';
import { ACCESS_KEY, isConsoleRule } from '../auth/access.decorator';
import { checkAccess } from '../auth/gateway-auth.guard';
import { KnownCompanies } from '../auth/known-companies';
import { ConsoleCookies } from './console-cookies';
import { ConsoleCsrfRefused, ConsoleSignInRequired } from './console-errors';

const SAFE_METHODS = new Set(['GET', 'HEAD']);

/** What the guard leaves on a console request. */
export interface ConsoleRequest extends Request {
  identity?: Identity;
  console?: { csrf: string };
}

/**
 * The console's door, for routes declared with @ConsolePage: a live session (else the sign-in
 * page), the session's CSRF token on anything but GET/HEAD, then the same company, permission and
 * role checks the gateway guard applies to a token. Other routes pass untouched.
 */
@Injectable()
export class ConsoleSessionGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly access: ConsoleAccess,
    private readonly cookies: ConsoleCookies,
    private readonly companies: KnownCompanies,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const rule: unknown = this.reflector.getAllAndOverride(ACCESS_KEY, [context.getHandler(), context.getClass()]);
    if (!isConsoleRule(rule)) return true;
    const request = context.switchToHttp().getRequest<ConsoleRequest>();
    const secret = this.cookies.readSession(request);
    const identity = secret ? await this.access.identityOf(secret) : null;
    if (!secret || !identity) throw new ConsoleSignInRequired();
    if (!SAFE_METHODS.has(request.method)) {
      const body = request.body as Record<string, unknown> | undefined;
      if (!this.cookies.csrfMatches(secret, body?._csrf ?? request.header('x-csrf-token'))) {
        throw new ConsoleCsrfRefused();
      }
    }
    await checkAccess(this.companies, identity, rule);
    request.identity = identity;
    request.console = { csrf: this.cookies.csrfToken(secret) };
    return true;
  }
}
