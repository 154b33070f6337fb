import {
  Clock,
  OAuthTokens,
  ProviderReauthorizationRequired,
  ProviderTokenStore,
  TokenRefreshDecision,
} from '@app/domain';
import type { FikenConnection } from './fiken-connection';
import { ProviderHttp, type CallScope } from '../http/provider-http';
import { SingleFlight } from '../http/single-flight';
import { sleep } from '../http/sleep';
import { TransportError } from '../http/transport-error';
import { asNumber, asObject, asString } from '../shared/json';
import { ResolvedFikenConfig } from './fiken.config';

/** How long a token read from the store is reused in memory before the store is read again. */
const REMEMBER_MS = 60_000;

/**
 * Fiken access tokens: read from the token store, refreshed shortly before `expires_in` runs out
 * or when the API answers 401. A refresh runs under the store's per-company lock (across
 * processes) and re-reads the tokens there: when another caller has already refreshed, its tokens
 * are used and the token endpoint is not called. In-process callers also join one refresh.
 *
 * A token read or refreshed here is remembered for up to a minute (never past its freshness), so
 * that paging through a ledger does not read and decrypt the connection for every page. A token
 * another instance replaced meanwhile is still valid until it expires; if Fiken refuses it (401),
 * the refresh path above re-reads the store. A company found disconnected is forgotten at once.
 */
export class FikenTokens {
  private readonly refreshing = new SingleFlight<OAuthTokens>();
  private readonly remembered = new Map<string, { tokens: OAuthTokens; until: number }>();

  constructor(
    private readonly store: ProviderTokenStore,
    private readonly http: ProviderHttp,
    private readonly config: ResolvedFikenConfig,
    private readonly clock: Clock,
  ) {}

  /** A usable access token, refreshed first when it is about to expire. */
  async accessToken(conn: FikenConnection, call: CallScope): Promise<string> {
    const remembered = this.remembered.get(conn.companyId);
    if (remembered && remembered.until > this.clock.now().getTime() && this.isFresh(remembered.tokens)) {
      return remembered.tokens.accessToken;
    }
    const current = await this.store.current(conn.companyId, 'fiken');
    if (!current) {
      this.remembered.delete(conn.companyId);
      throw notConnected(conn, 'the company has no Fiken connection or it needs re-authorisation');
    }
    if (this.isFresh(current)) {
      this.remember(conn.companyId, current);
      return current.accessToken;
    }
    return (await this.refresh(conn, current.accessToken, call)).accessToken;
  }

  /** Replaces `staleAccessToken` (expired or refused) unless someone already did. */
  refresh(conn: FikenConnection, staleAccessToken: string, call: CallScope): Promise<OAuthTokens> {
    return this.refreshing.run(conn.companyId, async () => {
      let revokedReason: string | undefined;
      const stored = await this.store.withRefreshLock(conn.companyId, 'fiken', async (current) => {
        if (!current) {
          return { outcome: 'keep' };
        }
        if (current.accessToken !== staleAccessToken && this.isFresh(current)) {
          return { outcome: 'keep' };
        }
        const decision = await this.callTokenEndpoint(conn, current, call);
        if (decision.outcome === 'revoked') {
          revokedReason = decision.reason;
        }
        return decision;
      });
      if (!stored) {
        this.remembered.delete(conn.companyId);
        throw notConnected(conn, revokedReason ?? 'the company has no Fiken connection or it needs re-authorisation');
      }
      this.remember(conn.companyId, stored);
      return stored;
    });
  }

  private remember(companyId: string, tokens: OAuthTokens): void {
    if (this.remembered.size >= 10_000) this.remembered.clear();
    this.remembered.set(companyId, { tokens, until: this.clock.now().getTime() + REMEMBER_MS });
  }

  private isFresh(tokens: OAuthTokens): boolean {
    return tokens.expiresAt - this.config.refreshMarginMs > this.clock.now().getTime();
  }

  private async callTokenEndpoint(
    conn: FikenConnection,
    current: OAuthTokens,
    call: CallScope,
  ): Promise<TokenRefreshDecision> {
    const issuedAt = this.clock.now().getTime();
    // The id and secret as they are: Fiken compares the Basic credentials as sent (no form-encoding).
    const basic = Buffer.from(`${this.config.clientId}:${this.config.clientSecret}`).toString('base64');
    const send = () =>
      this.http.send(
        {
          method: 'POST',
          url: conn.tokenUrl,
          recordedPath: new URL(conn.tokenUrl).pathname,
          headers: {
            Authorization: `Basic ${basic}`,
            'Content-Type': 'application/x-www-form-urlencoded',
            Accept: 'application/json',
          },
          body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: current.refreshToken }).toString(),
        },
        // Not retried blindly: a refresh whose outcome is unknown is resent once, below.
        { ...call, retryMode: 'not-processed-only' },
      );
    let answerLost = false;
    try {
      let response;
      try {
        response = await send();
      } catch (error) {
        if (!(error instanceof TransportError && error.outcomeUnknown)) throw error;
        // Fiken's token endpoint takes "the refresh token last returned for this user": the answer
        // was lost, so no newer one was returned, and the stored one is the one to send again. If
        // Fiken did rotate it, it answers invalid_grant: consent is then really needed.
        answerLost = true;
        await sleep(this.config.settleBeforeLookupMs);
        response = await send();
      }
      const body = asObject(response.body);
      const accessToken = asString(body.access_token);
      if (!accessToken) {
        throw new TransportError('fiken', 'rejected', 'Fiken token endpoint answered without an access_token', {
          status: response.status,
          outcomeUnknown: false,
        });
      }
      const expiresIn = asNumber(body.expires_in) > 0 ? asNumber(body.expires_in) : 3600;
      return {
        outcome: 'rotated',
        tokens: {
          accessToken,
          // The answer may carry a new refresh token: the newest one is always the one stored.
          refreshToken: asString(body.refresh_token) || current.refreshToken,
          expiresAt: issuedAt + expiresIn * 1000,
        },
      };
    } catch (error) {
      if (error instanceof TransportError && error.providerCode === 'invalid_grant') {
        const after = answerLost ? ' after a refresh whose answer was lost' : '';
        return {
          outcome: 'revoked',
          reason: `Fiken refused the refresh token (invalid_grant)${after}: ${error.message}`,
        };
      }
      throw error;
    }
  }
}

function notConnected(conn: FikenConnection, reason: string): ProviderReauthorizationRequired {
  return new ProviderReauthorizationRequired(
    'fiken',
    `Fiken connection of company ${conn.companyId} needs re-authorisation: ${reason}`,
  );
}
