import type { Dispatcher, FormData } from 'undici';
import { Clock, ProviderReauthorizationRequired } from '@app/domain';
import type { TripletexConnection } from './tripletex-connection';
import { HttpMethod, HttpResponse, ProviderHttp, type CallScope, type ResponseHead } from '../http/provider-http';
import { ResiliencePolicy, RetryMode } from '../http/resilience';
import { SingleFlight } from '../http/single-flight';
import { sleep } from '../http/sleep';
import { isUnauthorized, TransportError, windowClosedError } from '../http/transport-error';
import { tripletexSessionExpirationDate } from '../shared/dates';
import { asArray, asObject, asString, drainPage, Json } from '../shared/json';
import { PageGuard } from '../shared/paging';
import { buildUrl, Query } from '../shared/url';
import { ResolvedTripletexConfig } from './tripletex.config';
import { describeTripletexError } from './tripletex-errors';

export interface TripletexRequest {
  readonly method: HttpMethod;
  /** Path under the base URL, e.g. `/ledger/voucher`. */
  readonly path: string;
  readonly query?: Query;
  readonly json?: unknown;
  readonly form?: FormData;
  readonly retryMode?: RetryMode;
}

interface Session {
  readonly token: string;
  readonly renewAt: number;
  /** The connection's `credentials.version` it was made from. */
  readonly credentialsVersion: string;
}

const SESSION_CREATE_PATH = '/token/session/:create';

/**
 * Tripletex HTTP: session tokens (created from the consumer and employee tokens, cached per company
 * and credentials version, renewed before they lapse, once on a 401, and at once after a reconnect), `Basic 0:<session>` auth, the `X-Rate-Limit-*`
 * headers, and `from`/`count` paging that stops at the first short page (bounded: a repeated page,
 * one beyond `fullResultSize` or more than `MAX_PAGES` pages end it with an error).
 */
export class TripletexClient {
  private readonly http: ProviderHttp;
  private readonly sessions = new Map<string, Session>();
  private readonly sessionCreation = new SingleFlight<Session>();
  /** Per company: no request before this instant (epoch ms), set when `X-Rate-Limit-Remaining` hits 0. */
  private readonly blockedUntil = new Map<string, number>();

  constructor(
    private readonly config: ResolvedTripletexConfig,
    policy: ResiliencePolicy,
    private readonly clock: Clock,
    dispatcher?: Dispatcher,
  ) {
    this.http = new ProviderHttp({
      provider: 'tripletex',
      policy,
      describeError: describeTripletexError,
      rateLimitWaitMs: (response) => resetHeaderMs(response.headers) ?? this.config.rateLimitFallbackWaitMs,
      dispatcher,
    });
  }

  async request(conn: TripletexConnection, request: TripletexRequest, call: CallScope): Promise<HttpResponse> {
    let session = await this.session(conn, call);
    try {
      return await this.send(conn, request, session.token, call);
    } catch (error) {
      if (!isUnauthorized(error)) {
        throw error;
      }
      this.forget(conn, session);
      session = await this.session(conn, call);
      try {
        return await this.send(conn, request, session.token, call);
      } catch (retryError) {
        if (isUnauthorized(retryError)) {
          this.forget(conn, session);
          throw new ProviderReauthorizationRequired(
            'tripletex',
            `Tripletex refused a fresh session: ${retryError.message}`,
            401,
          );
        }
        throw retryError;
      }
    }
  }

  async getValue(conn: TripletexConnection, path: string, query: Query, call: CallScope): Promise<Json> {
    const response = await this.request(conn, { method: 'GET', path, query }, call);
    return asObject(asObject(response.body).value);
  }

  /** Every element of a list endpoint, one page (`count` elements) in memory at a time. */
  async *list(conn: TripletexConnection, path: string, query: Query, call: CallScope): AsyncGenerator<Json> {
    for await (const page of this.pages(conn, path, query, call)) {
      yield* drainPage(page);
    }
  }

  /** The pages of a list endpoint (`count` elements each, the last one shorter), as parsed. */
  async *pages(
    conn: TripletexConnection,
    path: string,
    query: Query,
    call: CallScope,
    /** The index of the first element to read (a resumed read). */
    start = 0,
  ): AsyncGenerator<unknown[]> {
    const count = this.config.pageSize;
    const guard = new PageGuard('tripletex', path);
    for (let from = start; ;) {
      const response = await this.request(conn, { method: 'GET', path, query: { ...query, from, count } }, call);
      const body = asObject(response.body);
      const values = asArray(body.values);
      const size = values.length;
      const total = typeof body.fullResultSize === 'number' ? body.fullResultSize : null;
      guard.check(values, Math.floor(from / count), total !== null && from >= total);
      yield values;
      if (size < count) {
        return;
      }
      from += size;
    }
  }

  private send(
    conn: TripletexConnection,
    request: TripletexRequest,
    sessionToken: string,
    call: CallScope,
  ): Promise<HttpResponse> {
    const headers: Record<string, string> = {
      Authorization: `Basic ${Buffer.from(`0:${sessionToken}`).toString('base64')}`,
      Accept: 'application/json',
    };
    let body: string | FormData | undefined;
    if (request.json !== undefined) {
      headers['Content-Type'] = 'application/json';
      body = JSON.stringify(request.json);
    } else if (request.form) {
      body = request.form;
    }
    const gateKey = sessionKey(conn);
    return this.http.send(
      {
        method: request.method,
        url: buildUrl(conn.baseUrl, request.path, request.query),
        recordedPath: request.path,
        headers,
        body,
      },
      {
        ...call,
        retryMode: request.retryMode,
        company: conn.companyId,
        beforeAttempt: () => this.waitForRateLimit(gateKey, call.maxRateLimitWaitMs),
        onResponse: (response) => this.noteRateLimit(gateKey, response),
      },
    );
  }

  private async session(conn: TripletexConnection, call: CallScope): Promise<Session> {
    const key = sessionKey(conn);
    const cached = this.sessions.get(key);
    const version = conn.credentials.version;
    if (cached && cached.credentialsVersion === version && cached.renewAt > this.clock.now().getTime()) {
      return cached;
    }
    return this.sessionCreation.run(`${key} ${version}`, async () => {
      const session = await this.createSession(conn, call);
      this.sessions.set(key, session);
      return session;
    });
  }

  private forget(conn: TripletexConnection, session: Session): void {
    const key = sessionKey(conn);
    if (this.sessions.get(key) === session) {
      this.sessions.delete(key);
    }
  }

  private async createSession(conn: TripletexConnection, call: CallScope): Promise<Session> {
    const createdAt = this.clock.now().getTime();
    const employeeToken = await conn.credentials.employeeToken();
    const expirationDate = tripletexSessionExpirationDate(this.clock.now());
    const url = buildUrl(conn.baseUrl, SESSION_CREATE_PATH, {
      consumerToken: this.config.consumerToken,
      employeeToken,
      expirationDate,
    });
    let response: HttpResponse;
    try {
      response = await this.http.send(
        { method: 'PUT', url, recordedPath: SESSION_CREATE_PATH, headers: { Accept: 'application/json' } },
        {
          ...call,
          company: conn.companyId,
          beforeAttempt: () => this.waitForRateLimit(sessionKey(conn), call.maxRateLimitWaitMs),
          onResponse: (r) => this.noteRateLimit(sessionKey(conn), r),
        },
      );
    } catch (error) {
      if (error instanceof TransportError && (error.status === 401 || error.status === 403)) {
        throw new ProviderReauthorizationRequired(
          'tripletex',
          `Tripletex refused the employee token: ${error.message}`,
          error.status,
        );
      }
      throw error;
    }
    const token = asString(asObject(asObject(response.body).value).token);
    if (!token) {
      throw new TransportError('tripletex', 'rejected', 'Tripletex created a session without a token', {
        status: response.status,
        outcomeUnknown: false,
      });
    }
    const lifetime = this.config.sessionTtlMs - this.config.sessionRenewMarginMs;
    return { token, renewAt: createdAt + Math.max(0, lifetime), credentialsVersion: conn.credentials.version };
  }

  /**
   * Waits until the company's window reopens when its last answer said none remain; a wait longer
   * than the call accepts (`maxWaitMs`) is not waited: the request is not sent, and the call fails
   * at once (`windowClosedError`), saying when the window reopens.
   */
  private async waitForRateLimit(key: string, maxWaitMs: number | undefined): Promise<void> {
    const until = this.blockedUntil.get(key);
    if (until === undefined) {
      return;
    }
    const wait = until - Date.now();
    if (maxWaitMs !== undefined && wait > maxWaitMs) {
      throw windowClosedError('tripletex', wait);
    }
    if (wait > 0) {
      await sleep(wait);
    }
    if (this.blockedUntil.get(key) === until) {
      this.blockedUntil.delete(key);
    }
  }

  private noteRateLimit(key: string, response: ResponseHead): void {
    const remaining = response.headers.get('x-rate-limit-remaining');
    if (remaining === null || Number(remaining) > 0) {
      return;
    }
    const resetMs = resetHeaderMs(response.headers);
    if (resetMs !== undefined && resetMs > 0) {
      this.blockedUntil.set(key, Date.now() + resetMs);
    }
  }
}

function sessionKey(conn: TripletexConnection): string {
  return `${conn.companyId} ${conn.baseUrl}`;
}

/** `X-Rate-Limit-Reset`: seconds left in the window (not an epoch). */
function resetHeaderMs(headers: Headers): number | undefined {
  const value = headers.get('x-rate-limit-reset');
  if (value === null || value.trim() === '') {
    return undefined;
  }
  const seconds = Number(value);
  return Number.isFinite(seconds) && seconds >= 0 ? seconds * 1000 : undefined;
}
