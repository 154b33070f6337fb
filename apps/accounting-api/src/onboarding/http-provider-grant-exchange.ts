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
 * - Fiken: `POST {oauth}/token` (form, HTTP Basic client auth, grant_type=authorization_code), then
 *   `GET {api}/companies` with the new access token to learn the company's slug;
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

  async redeemFikenCode(code: string, redirectUri: string): Promise<RedeemedGrant> {
    const { fikenClientId, fikenClientSecret } = this.options;
    if (!fikenClientId || !fikenClientSecret)
      throw new ProviderError('fiken', 'rejected', 'this service has no Fiken OAuth client configured');
    const issuedAt = this.clock.now().getTime();
    const basic = Buffer.from(`${encodeURIComponent(fikenClientId)}:${encodeURIComponent(fikenClientSecret)}`).toString(
      'base64',
    );
    const token = await this.send('fiken', 'token endpoint', this.endpoints.fiken.tokenUrl, {
      method: 'POST',
      headers: {
        Authorization: `Basic ${basic}`,
        'Content-Type': 'application/x-www-form-urlencoded',
        Accept: 'application/json',
      },
      body: new URLSearchParams({ grant_type: 'authorization_code', code, redirect_uri: redirectUri }).toString(),
    });
    const accessToken = stringField(token, 'access_token');
    const refreshToken = stringField(token, 'refresh_token');
    if (!accessToken || !refreshToken)
      throw new ProviderError('fiken', 'rejected', 'Fiken answered the code exchange without tokens');
    const expiresIn = typeof token.expires_in === 'number' && token.expires_in > 0 ? token.expires_in : 3600;
    const companies = await this.send('fiken', 'GET /companies', `${this.endpoints.fiken.apiUrl}/companies`, {
      method: 'GET',
      headers: { Authorization: `Bearer ${accessToken}`, Accept: 'application/json' },
    });
    const list = Array.isArray(companies) ? (companies as unknown[]) : [];
    const granted: GrantedCompany[] = list.flatMap((item) => {
      const slug = stringField(item, 'slug');
      return slug ? [{ id: slug, name: stringField(item, 'name') ?? null }] : [];
    });
    return { tokens: { accessToken, refreshToken, expiresAt: issuedAt + expiresIn * 1000 }, companies: granted };
  }

  async verifyTripletexEmployeeToken(employeeToken: string): Promise<GrantedCompany> {
    const consumerToken = this.options.tripletexConsumerToken;
    if (!consumerToken)
      throw new ProviderError('tripletex', 'rejected', 'this service has no Tripletex consumer token configured');
    const tomorrow = new Date(this.clock.now().getTime() + 86_400_000).toISOString().slice(0, 10);
    const create = new URL(`${this.endpoints.tripletex.apiUrl}/token/session/:create`);
    create.searchParams.set('consumerToken', consumerToken);
    create.searchParams.set('employeeToken', employeeToken);
    create.searchParams.set('expirationDate', tomorrow);
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
    if (response.ok) return (body ?? {}) as Record<string, unknown>;
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
