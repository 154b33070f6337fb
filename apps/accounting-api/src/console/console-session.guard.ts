import { Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { urlencoded, type Request, type RequestHandler, type Response } from 'express';
import { DomainError, type Identity } from '@app/domain';
import { ConsoleAccess } from '@app/application';
import { ACCESS_KEY, isConsoleRule } from '../auth/access.decorator';
import { checkAccess } from '../auth/gateway-auth.guard';
import { KnownCompanies } from '../auth/known-companies';
import { ConsoleCookies } from './console-cookies';
import { ConsoleAccessRefused, ConsoleCsrfRefused, ConsoleSignInRequired } from './console-errors';

const SAFE_METHODS = new Set(['GET', 'HEAD']);

/**
 * The console's forms (a reason, a correction, settings): small urlencoded bodies, never inflated,
 * read only once the session is known, as bodies of the API are read only after the token.
 */
const FORM_PARSER: RequestHandler = urlencoded({ extended: false, limit: '16kb', parameterLimit: 50, inflate: false });

/** Reads a console form's body into `request.body` (the guard's parser, also used by the sign-in form). */
export function readConsoleForm(request: Request, response: Response): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) =>
    FORM_PARSER(request, response, (error?: unknown) =>
      error ? reject(error) : resolve((request.body as Record<string, unknown> | undefined) ?? {}),
    ),
  );
}

/** What the guard leaves on a console request. */
export interface ConsoleRequest extends Request {
  identity?: Identity;
  console?: { csrf: string };
}

/**
 * The console's door, for routes declared with @ConsolePage: a live session (else the sign-in
 * page), then the form body and the session's CSRF token in it on anything but GET/HEAD, then the same company, permission and
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
      const body = await readConsoleForm(request, context.switchToHttp().getResponse<Response>());
      if (!this.cookies.csrfMatches(secret, body._csrf ?? request.header('x-csrf-token'))) {
        throw new ConsoleCsrfRefused();
      }
    }
    try {
      await checkAccess(this.companies, identity, rule);
    } catch (error) {
      if (error instanceof DomainError && (error.code === 'permission_denied' || error.code === 'role_insufficient')) {
        throw new ConsoleAccessRefused(rule, identity);
      }
      throw error;
    }
    request.identity = identity;
    request.console = { csrf: this.cookies.csrfToken(secret) };
    return true;
  }
}
