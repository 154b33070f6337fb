import { createHash, randomBytes } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { AUTHORIZATION_STATE_TTL_MS, AuthorizationRequestStore, Clock, type ProviderKind } from '@app/domain';
import type { Caller } from '../shared/caller';
import { AuthorizationStateSigner } from './authorization-state';
import { ProviderEndpoints } from './provider-endpoints';

export interface StartedConnection {
  /** Where to send the admin's browser: the provider's consent screen (or the token form). */
  readonly authorizeUrl: string;
  readonly expiresAt: Date;
  /**
   * The secret for the browser-binding cookie the caller must set in the browser it sends to
   * `authorizeUrl` (HttpOnly, SameSite=Lax, until `expiresAt`). The callback refuses the state in
   * any browser without it.
   */
  readonly browserSecret: string;
}

/** What a browser-binding secret is checked against (the state carries only this digest). */
export function browserBindingOf(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}

/**
 * Onboarding step 1–2: an admin asks to connect a provider. Remembers the request (single use,
 * 10 minutes) and returns the consent URL carrying its signed `state`, bound to the browser that
 * gets `browserSecret` as a cookie. Every state is bound: a consent URL opened by anyone else (a
 * forwarded link) can never finish, so a connection always ends in the browser that started it —
 * the web console's, signed in as an admin of the company.
 */
@Injectable()
export class StartConnection {
  constructor(
    private readonly requests: AuthorizationRequestStore,
    private readonly signer: AuthorizationStateSigner,
    private readonly endpoints: ProviderEndpoints,
    private readonly clock: Clock,
  ) {}

  async execute(caller: Caller, provider: ProviderKind): Promise<StartedConnection> {
    const now = this.clock.now();
    const expiresAt = new Date(now.getTime() + AUTHORIZATION_STATE_TTL_MS);
    const nonce = randomBytes(24).toString('base64url');
    await this.requests.issue({ nonce, companyId: caller.company, provider, actor: caller.actor, expiresAt }, now);
    const browserSecret = randomBytes(32).toString('base64url');
    const state = this.signer.sign({
      nonce,
      companyId: caller.company,
      provider,
      expiresAt: expiresAt.getTime(),
      binding: browserBindingOf(browserSecret),
    });
    return { authorizeUrl: this.authorizeUrl(provider, state), expiresAt, browserSecret };
  }

  private authorizeUrl(provider: ProviderKind, state: string): string {
    const redirectUri = this.endpoints.callbackUrl(provider);
    switch (provider) {
      case 'fiken': {
        const url = new URL(this.endpoints.fiken.authorizeUrl);
        url.searchParams.set('response_type', 'code');
        url.searchParams.set('client_id', this.endpoints.fiken.clientId);
        url.searchParams.set('redirect_uri', redirectUri);
        url.searchParams.set('state', state);
        return url.toString();
      }
      case 'tripletex': {
        const url = new URL(this.endpoints.tripletex.consentUrl ?? this.endpoints.tripletexTokenFormUrl());
        url.searchParams.set('redirect_uri', redirectUri);
        url.searchParams.set('state', state);
        return url.toString();
      }
    }
  }
}
