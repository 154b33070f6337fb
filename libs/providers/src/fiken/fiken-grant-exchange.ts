import { randomUUID } from 'node:crypto';
import { Clock, ProviderError, type GrantedCompany, type GrantProof, type RedeemedGrant } from '@app/domain';
import { grantCall, stringField } from '../http/grant-http';
import type { GrantRedeemer } from '../provider-definition';

const COMPANY_PAGE_SIZE = 100;
/** A grant opens a handful of companies; this only bounds a provider that never stops paging. */
const MAX_COMPANY_PAGES = 50;

export interface FikenGrantSettings {
  readonly apiUrl: string;
  readonly tokenUrl: string;
  readonly clientId: string | undefined;
  readonly clientSecret: string | undefined;
  readonly timeoutMs: number;
}

/**
 * Fiken's onboarding: `POST {oauth}/token` (form with `state`, which Fiken's definition lists as
 * required there too; HTTP Basic client auth with the id and secret as they are;
 * grant_type=authorization_code), then `GET {api}/companies` (paged) with the new access token to
 * learn the company's slug. Error messages never carry a token or a URL with one.
 */
export class FikenGrantExchange implements GrantRedeemer {
  constructor(
    private readonly settings: FikenGrantSettings,
    private readonly clock: Clock,
  ) {}

  async redeem(proof: GrantProof): Promise<RedeemedGrant> {
    const { clientId, clientSecret, timeoutMs } = this.settings;
    if (!clientId || !clientSecret)
      throw new ProviderError('fiken', 'rejected', 'this service has no Fiken OAuth client configured');
    const issuedAt = this.clock.now().getTime();
    // The id and secret as they are: Fiken compares the Basic credentials as sent (no form-encoding).
    const basic = Buffer.from(`${clientId}:${clientSecret}`).toString('base64');
    const { body: token } = await grantCall(
      'fiken',
      'token endpoint',
      this.settings.tokenUrl,
      {
        method: 'POST',
        headers: {
          Authorization: `Basic ${basic}`,
          'Content-Type': 'application/x-www-form-urlencoded',
          Accept: 'application/json',
        },
        body: new URLSearchParams({
          grant_type: 'authorization_code',
          code: proof.code,
          redirect_uri: proof.redirectUri,
          state: proof.state,
        }).toString(),
      },
      timeoutMs,
    );
    const accessToken = stringField(token, 'access_token');
    const refreshToken = stringField(token, 'refresh_token');
    if (!accessToken || !refreshToken)
      throw new ProviderError('fiken', 'rejected', 'Fiken answered the code exchange without tokens');
    const expiresInField = (token as Record<string, unknown>).expires_in;
    const expiresIn = typeof expiresInField === 'number' && expiresInField > 0 ? expiresInField : 3600;
    const granted: GrantedCompany[] = [];
    // Paged like every Fiken collection (page/pageSize, the page count in a header); one page at a time.
    for (let page = 0; page < MAX_COMPANY_PAGES; page++) {
      const url = `${this.settings.apiUrl}/companies?page=${page}&pageSize=${COMPANY_PAGE_SIZE}`;
      const { body, headers } = await grantCall(
        'fiken',
        'GET /companies',
        url,
        {
          method: 'GET',
          headers: { Authorization: `Bearer ${accessToken}`, Accept: 'application/json', 'X-Request-ID': randomUUID() },
        },
        timeoutMs,
      );
      const list = Array.isArray(body) ? (body as unknown[]) : [];
      for (const item of list) {
        const slug = stringField(item, 'slug');
        if (slug) granted.push({ id: slug, name: stringField(item, 'name') ?? null });
      }
      const pageCount = Number(headers.get('fiken-api-page-count'));
      if (list.length < COMPANY_PAGE_SIZE || (Number.isInteger(pageCount) && page + 1 >= pageCount)) break;
    }
    return {
      secret: { kind: 'oauth', tokens: { accessToken, refreshToken, expiresAt: issuedAt + expiresIn * 1000 } },
      companies: granted,
    };
  }
}
