import type { ProviderKind } from '../provider/provider-connection';

/** A company's OAuth tokens at a provider (Fiken), decrypted, in memory only. */
export interface OAuthTokens {
  readonly accessToken: string;
  readonly refreshToken: string;
  /** When the access token stops working, epoch milliseconds (issue time + `expires_in`). */
  readonly expiresAt: number;
}

/**
 * What a refresh decided, computed while the company's refresh lock is held:
 * - `keep`: the stored tokens are already fresh (another caller or process refreshed them): leave them;
 * - `rotated`: store these tokens (the newest refresh token included) before the lock is released;
 * - `revoked`: the provider refused the refresh token (`invalid_grant`): mark the connection as
 *   needing re-authorisation before the lock is released.
 */
export type TokenRefreshDecision =
  | { readonly outcome: 'keep' }
  | { readonly outcome: 'rotated'; readonly tokens: OAuthTokens }
  | { readonly outcome: 'revoked'; readonly reason: string };

/**
 * Storage of a company's provider OAuth tokens with a refresh that is single-flight per
 * (company, provider) across every process of the service.
 *
 * Contract (the shared contract test `describeProviderTokenStoreContract` checks it):
 * 1. `current` returns the stored tokens, or null when the company has no connection to the
 *    provider or the connection needs re-authorisation. It takes no lock.
 * 2. `withRefreshLock(companyId, provider, decide)` holds an exclusive lock on the company's
 *    connection for the whole call — across processes (production: one transaction with
 *    `SELECT … FOR UPDATE` on the connection row). Under the lock it re-reads the tokens and calls
 *    `decide(current)` exactly once, with the tokens as they are now (null when none / revoked).
 *    Callers queued on the lock run one after another and each sees what the previous one stored.
 * 3. On `rotated` it stores all three fields in the same transaction (the refresh token is the
 *    newest one, always); on `revoked` it marks the connection as needing re-authorisation (after
 *    which `current` returns null) in the same transaction; on `keep` it changes nothing.
 *    It then commits, releases the lock and returns the tokens now stored (null after `revoked`).
 * 4. When `decide` throws, nothing is changed, the lock is released and the error propagates.
 * 5. `decide` may call the provider's token endpoint (an HTTP call inside the lock is the point:
 *    a refresh token may be used once); it must not call back into the store for the same company.
 * 6. Tokens are stored encrypted (TokenVault, purposes `access_token` / `refresh_token`) and never
 *    logged.
 */
export abstract class ProviderTokenStore {
  abstract current(companyId: string, provider: ProviderKind): Promise<OAuthTokens | null>;

  abstract withRefreshLock(
    companyId: string,
    provider: ProviderKind,
    decide: (current: OAuthTokens | null) => Promise<TokenRefreshDecision>,
  ): Promise<OAuthTokens | null>;
}
