import { timingSafeEqual } from 'node:crypto';
import { Injectable, Logger } from '@nestjs/common';
import {
  AuthorizationRequestStore,
  Clock,
  ProviderConnectionRepository,
  ProviderError,
  ProviderGrantExchange,
  type AuthorizationRequest,
  type ProviderGrant,
  type ProviderKind,
  type StateRejection,
} from '@app/domain';
import { CompanyContextService } from '../context/company-context.service';
import { AuthorizationStateSigner } from './authorization-state';
import { browserBindingOf } from './start-connection.handler';
import { ProviderEndpoints } from './provider-endpoints';

/** What came back to the callback: the provider's `code` or `error`, and our `state`. */
export interface ConnectionCallback {
  readonly provider: ProviderKind;
  readonly state?: string;
  readonly code?: string;
  readonly error?: string;
  /** The browser-binding cookie the callback's browser sent, if any. */
  readonly browserSecret?: string;
}

export type ConnectionOutcome =
  | {
      readonly kind: 'connected';
      readonly companyId: string;
      readonly provider: ProviderKind;
      readonly externalCompanyId: string | null;
      readonly externalCompanyName: string | null;
      /** What the context pre-fetch found, or null when it failed (`contextError` says why). */
      readonly context: { accounts: number; departments: number; vatTypes: number; employees: number } | null;
      readonly contextError?: string;
    }
  /** The admin refused consent at the provider. Nothing stored. */
  | { readonly kind: 'consent_refused'; readonly provider: ProviderKind; readonly companyId: string }
  /** The state is forged, expired or used already. Nothing stored. */
  | { readonly kind: 'invalid_state'; readonly rejection: StateRejection }
  /** The provider refused the code or token (or answered something unusable). Nothing stored. */
  | { readonly kind: 'grant_refused'; readonly provider: ProviderKind; readonly reason: string }
  /** The provider could not be reached or failed. Nothing stored; the admin can start again. */
  | { readonly kind: 'provider_failed'; readonly provider: ProviderKind; readonly reason: string };

/**
 * Onboarding steps 4–8: the provider's redirect. Checks the signed state and consumes its request
 * (single use), redeems the code or token at the provider (`ProviderGrantExchange.redeem`),
 * stores them sealed (ProviderConnectionRepository), then pre-fetches the company context.
 * Tokens pass through this handler in memory only; no outcome carries one.
 */
@Injectable()
export class CompleteConnection {
  private readonly logger = new Logger(CompleteConnection.name);

  constructor(
    private readonly requests: AuthorizationRequestStore,
    private readonly signer: AuthorizationStateSigner,
    private readonly exchange: ProviderGrantExchange,
    private readonly connections: ProviderConnectionRepository,
    private readonly context: CompanyContextService,
    private readonly endpoints: ProviderEndpoints,
    private readonly clock: Clock,
  ) {}

  /**
   * Whether a state may still complete in this browser (for the Tripletex token form, before the
   * callback consumes it): signed, pending, and bound to `browserSecret`.
   */
  async isPending(provider: ProviderKind, state: string, browserSecret: string | undefined): Promise<boolean> {
    const claims = this.signer.verify(state);
    const now = this.clock.now();
    if (!claims || claims.provider !== provider || claims.expiresAt <= now.getTime()) return false;
    if (claims.binding === undefined || !this.boundHere(claims.binding, browserSecret)) return false;
    return this.requests.isPending(claims.nonce, now);
  }

  async execute(callback: ConnectionCallback): Promise<ConnectionOutcome> {
    const accepted = await this.acceptState(callback);
    if ('rejection' in accepted) return { kind: 'invalid_state', rejection: accepted.rejection };
    const request = accepted.request;
    if (callback.error !== undefined || !callback.code) {
      return { kind: 'consent_refused', provider: request.provider, companyId: request.companyId };
    }

    let grant: ProviderGrant;
    let external: { id: string; name: string | null };
    try {
      ({ grant, external } = await this.redeem(request.provider, callback.code, callback.state ?? ''));
    } catch (error) {
      if (!(error instanceof ProviderError)) throw error;
      const kind =
        error.reason === 'rejected' || error.reason === 'not_connected' ? 'grant_refused' : 'provider_failed';
      return { kind, provider: request.provider, reason: error.message };
    }

    const record = await this.connections.connect({
      companyId: request.companyId,
      grant,
      externalCompanyId: external.id,
      externalCompanyName: external.name,
      connectedBy: request.actor,
    });
    this.logger.log(`company ${record.companyId} connected to ${record.provider} by ${request.actor}`);
    const connected = {
      kind: 'connected' as const,
      companyId: record.companyId,
      provider: record.provider,
      externalCompanyId: record.externalCompanyId,
      externalCompanyName: record.externalCompanyName,
    };
    try {
      const context = await this.context.fetch(record);
      return {
        ...connected,
        context: {
          accounts: context.accounts.length,
          departments: context.departments.length,
          vatTypes: context.vatTypes.length,
          employees: context.employees.length,
        },
      };
    } catch (error) {
      if (!(error instanceof ProviderError)) throw error;
      return { ...connected, context: null, contextError: error.message };
    }
  }

  /** The pending request the state names, consumed; or why the state is refused. */
  private async acceptState(
    callback: ConnectionCallback,
  ): Promise<{ request: AuthorizationRequest } | { rejection: StateRejection }> {
    const claims = callback.state ? this.signer.verify(callback.state) : null;
    if (!claims || claims.provider !== callback.provider) return { rejection: 'forged' };
    // A state without a browser binding finishes nowhere: whoever opens its link would connect
    // their own ledger into the company that started it.
    if (claims.binding === undefined) return { rejection: 'unbound' };
    // Checked before the request is consumed: a forwarded link opened elsewhere leaves the
    // admin's own browser able to finish.
    if (!this.boundHere(claims.binding, callback.browserSecret)) return { rejection: 'other_browser' };
    const request = await this.requests.consume(claims.nonce);
    if (!request) return { rejection: 'replayed' };
    if (request.companyId !== claims.companyId || request.provider !== claims.provider) return { rejection: 'forged' };
    const now = this.clock.now().getTime();
    if (claims.expiresAt <= now || request.expiresAt.getTime() <= now) return { rejection: 'expired' };
    return { request };
  }

  private boundHere(binding: string, browserSecret: string | undefined): boolean {
    if (browserSecret === undefined) return false;
    const expected = Buffer.from(binding);
    const actual = Buffer.from(browserBindingOf(browserSecret));
    return expected.length === actual.length && timingSafeEqual(expected, actual);
  }

  private async redeem(
    provider: ProviderKind,
    code: string,
    state: string,
  ): Promise<{ grant: ProviderGrant; external: { id: string; name: string | null } }> {
    const redeemed = await this.exchange.redeem(provider, {
      code,
      redirectUri: this.endpoints.callbackUrl(provider),
      state,
    });
    const company = redeemed.companies[0];
    if (!company) throw new ProviderError(provider, 'rejected', `the ${provider} grant opens no company`);
    return { grant: { provider, secret: redeemed.secret }, external: company };
  }
}
