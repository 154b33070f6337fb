import type { FormData } from 'undici';
import { randomUUID } from 'node:crypto';
import { ProviderReauthorizationRequired } from '@app/domain';
import type { FikenConnection } from './fiken-connection';
import { HttpMethod, HttpResponse, ProviderHttp, type CallScope } from '../http/provider-http';
import { RetryMode } from '../http/resilience';
import type { SlotPriority } from '../http/request-slots';
import { RequestTurns } from '../http/request-turns';
import type { SharedRequestSlots } from '../ports/shared-request-slots.port';
import { isUnauthorized } from '../http/transport-error';
import { asArray, drainPage, Json } from '../shared/json';
import { PageGuard } from '../shared/paging';
import { buildUrl, Query } from '../shared/url';
import { ResolvedFikenConfig } from './fiken.config';
import { FikenTokens } from './fiken-tokens';

export interface FikenRequest {
  readonly method: HttpMethod;
  /** Path under `/companies/{companySlug}`, e.g. `/purchases`. */
  readonly path: string;
  readonly query?: Query;
  readonly json?: unknown;
  readonly form?: FormData;
  readonly retryMode?: RetryMode;
  /** `background` (the checks' and the history's paging) waits behind every `urgent` request (bookings). Default urgent. */
  readonly priority?: SlotPriority;
}

/**
 * Fiken HTTP: Bearer access tokens (refreshed once on a 401), an `X-Request-ID` on every call, one
 * API request in flight across every company and every instance sharing `shared` (Fiken allows one
 * per application; without a shared slot, `maxConcurrentRequests` in this process), request starts
 * at least `requestPaceMs` apart, bookings before paging (`RequestTurns`), and header paging (`Fiken-Api-Page-Count`), bounded: a repeated page, one beyond
 * the announced count or more than `MAX_PAGES` pages end it with an error.
 */
export class FikenClient {
  private readonly turns: RequestTurns;

  constructor(
    private readonly http: ProviderHttp,
    private readonly tokens: FikenTokens,
    private readonly config: ResolvedFikenConfig,
    shared?: SharedRequestSlots,
  ) {
    this.turns = new RequestTurns({
      provider: 'fiken',
      name: `fiken:${config.clientId}`,
      localLimit: config.maxConcurrentRequests,
      paceMs: config.requestPaceMs,
      shared,
    });
  }

  async request(conn: FikenConnection, request: FikenRequest, call: CallScope): Promise<HttpResponse> {
    const accessToken = await this.tokens.accessToken(conn, call);
    try {
      return await this.send(conn, request, accessToken, call);
    } catch (error) {
      if (!isUnauthorized(error)) {
        throw error;
      }
      const renewed = await this.tokens.refresh(conn, accessToken, call);
      try {
        return await this.send(conn, request, renewed.accessToken, call);
      } catch (retryError) {
        if (isUnauthorized(retryError)) {
          throw new ProviderReauthorizationRequired(
            'fiken',
            `Fiken refused a freshly refreshed access token: ${retryError.message}`,
            401,
          );
        }
        throw retryError;
      }
    }
  }

  /** Every element of a paginated collection, one page in memory at a time. */
  async *list(conn: FikenConnection, path: string, query: Query, call: CallScope): AsyncGenerator<Json> {
    for await (const page of this.pages(conn, path, query, call)) {
      yield* drainPage(page);
    }
  }

  /** The pages of a paginated collection (`pageSize` elements each, the last one shorter), as parsed. */
  async *pages(
    conn: FikenConnection,
    path: string,
    query: Query,
    call: CallScope,
    /** The first page to read (a resumed read). */
    start = 0,
    /** `background` for reads that may wait behind bookings (the daily checks, the history import). */
    priority: SlotPriority = 'urgent',
  ): AsyncGenerator<unknown[]> {
    const pageSize = this.config.pageSize;
    const guard = new PageGuard('fiken', path);
    for (let page = start; ; page++) {
      const response = await this.request(
        conn,
        { method: 'GET', path, query: { ...query, page, pageSize }, priority },
        call,
      );
      const items = asArray(response.body);
      const size = items.length;
      const pageCount = headerInteger(response.headers, 'fiken-api-page-count');
      const resultCount = headerInteger(response.headers, 'fiken-api-result-count');
      const beyond =
        (pageCount !== null && page >= pageCount) || (resultCount !== null && page * pageSize >= resultCount);
      guard.check(items, page, beyond);
      yield items;
      const lastByCount = pageCount !== null && page + 1 >= pageCount;
      if (size === 0 || lastByCount || size < pageSize) {
        return;
      }
    }
  }

  /**
   * A collection Fiken does not page (`GET /accounts`: "This endpoint is not paginated"): one request
   * without `page`/`pageSize`, every element in its answer.
   */
  async unpaged(conn: FikenConnection, path: string, query: Query, call: CallScope): Promise<unknown[]> {
    const response = await this.request(conn, { method: 'GET', path, query }, call);
    return asArray(response.body);
  }

  private send(
    conn: FikenConnection,
    request: FikenRequest,
    accessToken: string,
    call: CallScope,
  ): Promise<HttpResponse> {
    const companyPath = `/companies/${encodeURIComponent(conn.companySlug)}${request.path}`;
    const headers: Record<string, string> = {
      Authorization: `Bearer ${accessToken}`,
      Accept: 'application/json',
      'X-Request-ID': randomUUID(),
    };
    let body: string | FormData | undefined;
    if (request.json !== undefined) {
      headers['Content-Type'] = 'application/json';
      body = JSON.stringify(request.json);
    } else if (request.form) {
      body = request.form;
    }
    return this.http.send(
      {
        method: request.method,
        url: buildUrl(conn.baseUrl, companyPath, request.query),
        recordedPath: companyPath,
        headers,
        body,
      },
      {
        ...call,
        retryMode: request.retryMode,
        company: conn.companyId,
        exclusive: (attempt) => this.turns.run(attempt, request.priority ?? 'urgent'),
      },
    );
  }
}

/** An integer response header, or null when it is absent or not an integer. */
function headerInteger(headers: Headers, name: string): number | null {
  const value = headers.get(name);
  if (value === null || value.trim() === '') return null;
  const number = Number(value);
  return Number.isInteger(number) && number >= 0 ? number : null;
}

/** The id of a created resource: the last segment of its `Location` header. */
export function idFromLocation(response: HttpResponse): string | undefined {
  const location = response.headers.get('location');
  if (!location) {
    return undefined;
  }
  const path = location.split('?')[0].replace(/\/+$/, '');
  const last = path.slice(path.lastIndexOf('/') + 1);
  return last === '' ? undefined : decodeURIComponent(last);
}
