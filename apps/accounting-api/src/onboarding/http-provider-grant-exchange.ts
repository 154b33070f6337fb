import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import {
  Clock,
  ProviderError,
  ProviderGrantExchange,
  type GrantedCompany,
  type ProviderKind,
  type RedeemedGrant,
} from '@app/domain';
import { ProviderEndpoints } from '@app/application';
import { tripletexSessionExpirationDate } from '@app/providers';

const COMPANY_PAGE_SIZE = 100;
/** A grant opens a handful of companies; this only bounds a provider that never stops paging. */
const MAX_COMPANY_PAGES = 50;

/** The application's credentials at the providers and how long to wait for them. */
export class GrantExchangeOptions {
  constructor(
    readonly tripletexConsumerToken: string | undefined,
    readonly fikenClientId: string | undefined,
    readonly fikenClientSecret: string | undefined,
    readonly timeoutMs: number,
  ) {}
}

/**
 * The onboarding calls of Level 3 (spec §5), over HTTP:
 * - Fiken: `POST {oauth}/token` (form with `state`, HTTP Basic client auth with the id and secret as
 *   they are, grant_type=authorization_code), then `GET {api}/companies` (paged) with the new access
 *   token to learn the company's slug;
 * - Tripletex: `PUT {api}/token/session/:create` with the consumer and employee tokens, then
 *   `GET {api}/token/session/>whoAmI` with `Basic 0:<session>` to learn the company id.
 * Error messages never carry a token or a URL with one.
 */
@Injectable()
export class HttpProviderGrantExchange extends ProviderGrantExchange {
  constructor(
    private readonly endpoints: ProviderEndpoints,
    private readonly options: GrantExchangeOptions,
    private readonly clock: Clock,
  ) {
    super();
  }

  async redeemFikenCode(code: string, redirectUri: string, state: string): Promise<RedeemedGrant> {
    const { fikenClientId, fikenClientSecret } = this.options;
    if (!fikenClientId || !fikenClientSecret)
      throw new ProviderError('fiken', 'rejected', 'this service has no Fiken OAuth client configured');
    const issuedAt = this.clock.now().getTime();
    // The id and secret as they are: Fiken compares the Basic credentials as sent (no form-encoding).
    const basic = Buffer.from(`${fikenClientId}:${fikenClientSecret}`).toString('base64');
    const token = await this.send('fiken', 'token endpoint', this.endpoints.fiken.tokenUrl, {
      method: 'POST',
      headers: {
        Authorization: `Basic ${basic}`,
        'Content-Type': 'application/x-www-form-urlencoded',
        Accept: 'application/json',
      },
      body: new URLSearchParams({
        grant_type: 'authorization_code',
        code,
        redirect_uri: redirectUri,
        state,
      }).toString(),
    });
    const accessToken = stringField(token, 'access_token');
    const refreshToken = stringField(token, 'refresh_token');
    if (!accessToken || !refreshToken)
      throw new ProviderError('fiken', 'rejected', 'Fiken answered the code exchange without tokens');
    const expiresIn = typeof token.expires_in === 'number' && token.expires_in > 0 ? token.expires_in : 3600;
    const granted: GrantedCompany[] = [];
    // Paged like every Fiken collection (page/pageSize, the page count in a header); one page at a time.
    for (let page = 0; page < MAX_COMPANY_PAGES; page++) {
      const url = `${this.endpoints.fiken.apiUrl}/companies?page=${page}&pageSize=${COMPANY_PAGE_SIZE}`;
      const { body, headers } = await this.sendWithHeaders('fiken', 'GET /companies', url, {
        method: 'GET',
        headers: { Authorization: `Bearer ${accessToken}`, Accept: 'application/json', 'X-Request-ID': randomUUID() },
      });
      const list = Array.isArray(body) ? (body as unknown[]) : [];
      for (const item of list) {
        const slug = stringField(item, 'slug');
        if (slug) granted.push({ id: slug, name: stringField(item, 'name') ?? null });
      }
      const pageCount = Number(headers.get('fiken-api-page-count'));
      if (list.length < COMPANY_PAGE_SIZE || (Number.isInteger(pageCount) && page + 1 >= pageCount)) break;
    }
    return { tokens: { accessToken, refreshToken, expiresAt: issuedAt + expiresIn * 1000 }, companies: granted };
  }

  async verifyTripletexEmployeeToken(employeeToken: string): Promise<GrantedCompany> {
    const consumerToken = this.options.tripletexConsumerToken;
    if (!consumerToken)
      throw new ProviderError('tripletex', 'rejected', 'this service has no Tripletex consumer token configured');
    const create = new URL(`${this.endpoints.tripletex.apiUrl}/token/session/:create`);
    create.searchParams.set('consumerToken', consumerToken);
    create.searchParams.set('employeeToken', employeeToken);
    create.searchParams.set('expirationDate', tripletexSessionExpirationDate(this.clock.now()));
    const session = await this.send('tripletex', 'PUT /token/session/:create', create.toString(), {
      method: 'PUT',
      headers: { Accept: 'application/json' },
    });
    const sessionToken = stringField(objectField(session, 'value'), 'token');
    if (!sessionToken) throw new ProviderError('tripletex', 'rejected', 'Tripletex created a session without a token');
    const whoAmI = await this.send(
      'tripletex',
      'GET /token/session/>whoAmI',
      `${this.endpoints.tripletex.apiUrl}/token/session/%3EwhoAmI`,
      {
        method: 'GET',
        headers: {
          Authorization: `Basic ${Buffer.from(`0:${sessionToken}`).toString('base64')}`,
          Accept: 'application/json',
        },
      },
    );
    const companyId = objectField(whoAmI, 'value').companyId;
    return { id: companyId === undefined || companyId === null ? '' : String(companyId), name: null };
  }

  /** One call; the provider's answer as JSON, or a ProviderError saying what went wrong (never the URL). */
  private async send(
    provider: ProviderKind,
    what: string,
    url: string,
    init: RequestInit,
  ): Promise<Record<string, unknown>> {
    return (await this.sendWithHeaders(provider, what, url, init)).body as Record<string, unknown>;
  }

  private async sendWithHeaders(
    provider: ProviderKind,
    what: string,
    url: string,
    init: RequestInit,
  ): Promise<{ body: unknown; headers: Headers }> {
    let response: Response;
    try {
      response = await fetch(url, { ...init, redirect: 'error', signal: AbortSignal.timeout(this.options.timeoutMs) });
    } catch (error) {
      const timedOut = error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError');
      throw new ProviderError(
        provider,
        timedOut ? 'timeout' : 'unavailable',
        `${provider} ${what}: ${timedOut ? 'no answer in time' : 'could not connect'}`,
      );
    }
    const text = await response.text();
    let body: unknown = null;
    try {
      body = text ? JSON.parse(text) : null;
    } catch {
      body = null;
    }
    if (response.ok) return { body: body ?? {}, headers: response.headers };
    const message =
      stringField(body, 'message') ??
      stringField(body, 'error_description') ??
      stringField(body, 'error') ??
      response.statusText;
    const reason = response.status >= 500 || response.status === 429 ? 'unavailable' : 'rejected';
    throw new ProviderError(
      provider,
      reason,
      `${provider} ${what} answered ${response.status}: ${message}`.slice(0, 500),
      { status: response.status },
    );
  }
}

function objectField(value: unknown, key: string): Record<string, unknown> {
  const field = value && typeof value === 'object' ? (value as Record<string, unknown>)[key] : undefined;
  return field && typeof field === 'object' ? (field as Record<string, unknown>) : {};
}

function stringField(value: unknown, key: string): string | undefined {
  const field = value && typeof value === 'object' ? (value as Record<string, unknown>)[key] : undefined;
  return typeof field === 'string' && field !== '' ? field : undefined;
}
