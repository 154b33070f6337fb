import { ProviderError } from '@app/domain';
import type { ProviderDefinition } from '@app/providers';
import type { KassebokLedger } from './kassebok-ledger';
import { KassebokProvider, type KassebokConnection } from './kassebok.provider';

export interface KassebokSettings {
  readonly ledger: KassebokLedger;
  /** Kassebok's consent screen. */
  readonly authorizeUrl: string;
}

/** Kassebok: OAuth consent; the adapter books into the in-memory ledger. */
export const kassebok: ProviderDefinition<KassebokSettings> = {
  kind: 'kassebok',
  displayName: 'Kassebok',
  onboarding: 'oauth',
  create({ ledger, authorizeUrl }, { clock, tokenStore }) {
    return {
      adapter: new KassebokProvider(ledger, tokenStore, clock),
      grantExchange: {
        async redeem({ code, redirectUri, state }) {
          const redeemed = ledger.redeem(code, redirectUri, state, clock.now().getTime());
          if (!redeemed) throw new ProviderError('kassebok', 'rejected', 'Kassebok refused the authorization code');
          return {
            secret: { kind: 'oauth', tokens: redeemed.tokens },
            companies: [{ id: redeemed.slug, name: ledger.companyName(redeemed.slug) }],
          };
        },
      },
      authorizeUrl({ state, redirectUri }) {
        const url = new URL(authorizeUrl);
        url.searchParams.set('redirect_uri', redirectUri);
        url.searchParams.set('state', state);
        return url.toString();
      },
      connectionOf(record): KassebokConnection {
        return {
          provider: 'kassebok',
          companyId: record.companyId,
          baseUrl: authorizeUrl,
          companySlug: record.externalCompanyId ?? '',
        };
      },
    };
  },
};
