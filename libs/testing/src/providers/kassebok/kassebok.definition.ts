import { ProviderError } from '@app/domain';
import { providerEnvValues, type ProviderDefinition } from '@app/providers';
import { KassebokLedger } from './kassebok-ledger';
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
  config: {
    variables: {
      /** Kassebok's consent screen. */
      KASSEBOK_AUTHORIZE_URL: providerEnvValues.httpUrl(),
      /** The application's client at Kassebok. */
      KASSEBOK_CLIENT_ID: providerEnvValues.text(),
    },
    credentialsHint: 'KASSEBOK_CLIENT_ID',
    hasCredentials: (env) => env.KASSEBOK_CLIENT_ID !== undefined,
    problems: (env) =>
      env.KASSEBOK_CLIENT_ID !== undefined && env.KASSEBOK_AUTHORIZE_URL === undefined
        ? ['KASSEBOK_CLIENT_ID needs KASSEBOK_AUTHORIZE_URL']
        : [],
    settings(env) {
      if (env.KASSEBOK_CLIENT_ID === undefined) return { missing: 'KASSEBOK_CLIENT_ID' };
      return { ledger: new KassebokLedger(), authorizeUrl: env.KASSEBOK_AUTHORIZE_URL as string };
    },
  },
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
