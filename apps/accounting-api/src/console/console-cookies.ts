import { createHmac, timingSafeEqual } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import * as cookie from 'cookie';
import type { Request, Response } from 'express';
import { AppConfig } from '../config/app-config';

/**
 * The console's cookies. The session cookie holds the session's secret (stored server-side as a
 * digest): HttpOnly, SameSite=Strict, Path=/, Secure (and then named with the `__Host-` prefix)
 * whenever the service is reached over https or runs in production; it lives exactly as long as
 * the session. The CSRF token of a session is derived from its secret with HMAC, so it needs no
 * storage and cannot be computed by anyone who cannot read the cookie.
 */
@Injectable()
export class ConsoleCookies {
  readonly secure: boolean;
  readonly sessionName: string;
  readonly bindingName: string;

  constructor(config: AppConfig) {
    this.secure = config.production || config.publicUrl.startsWith('https:');
    this.sessionName = this.secure ? '__Host-console_session' : 'console_session';
    this.bindingName = this.secure ? '__Secure-oauth_binding' : 'oauth_binding';
  }

  read(request: Request, name: string): string | undefined {
    const header = request.headers.cookie;
    if (!header) return undefined;
    const value = cookie.parse(header)[name];
    return value && value.length <= 256 ? value : undefined;
  }

  readSession(request: Request): string | undefined {
    return this.read(request, this.sessionName);
  }

  setSession(response: Response, secret: string, expiresAt: Date): void {
    response.cookie(this.sessionName, secret, {
      httpOnly: true,
      secure: this.secure,
      sameSite: 'strict',
      path: '/',
      expires: expiresAt,
    });
  }

  clearSession(response: Response): void {
    response.clearCookie(this.sessionName, { httpOnly: true, secure: this.secure, sameSite: 'strict', path: '/' });
  }

  /**
   * The browser binding of a provider connection started in the console: its secret, whose digest
   * the OAuth `state` carries. SameSite=Lax, because the provider's redirect back is a cross-site
   * top-level navigation; only sent to the OAuth routes; gone when the state expires.
   */
  setOAuthBinding(response: Response, secret: string, expiresAt: Date): void {
    response.cookie(this.bindingName, secret, {
      httpOnly: true,
      secure: this.secure,
      sameSite: 'lax',
      path: '/v1/oauth',
      expires: expiresAt,
    });
  }

  readOAuthBinding(request: Request): string | undefined {
    return this.read(request, this.bindingName);
  }

  clearOAuthBinding(response: Response): void {
    response.clearCookie(this.bindingName, { httpOnly: true, secure: this.secure, sameSite: 'lax', path: '/v1/oauth' });
  }

  /** The CSRF token every state-changing console request must carry (form field `_csrf`). */
  csrfToken(sessionSecret: string): string {
    return createHmac('sha256', sessionSecret).update('console-csrf:v1').digest('base64url');
  }

  csrfMatches(sessionSecret: string, given: unknown): boolean {
    if (typeof given !== 'string') return false;
    const expected = Buffer.from(this.csrfToken(sessionSecret));
    const actual = Buffer.from(given);
    return actual.length === expected.length && timingSafeEqual(actual, expected);
  }
}
