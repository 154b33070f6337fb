import { ApiCallRecorder, FieldError, ProviderKind } from '@app/domain';
import { ResiliencePolicy, RetryMode } from './resilience';
import { nodeGet, type WireResponse } from './node-get';
import { TransportError } from './transport-error';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

export interface HttpRequest {
  readonly method: HttpMethod;
  /** Absolute URL, query string included. */
  readonly url: string;
  /** What `api_calls` shows: the path relative to the provider's base URL, no query, no secrets. */
  readonly recordedPath: string;
  readonly headers?: Readonly<Record<string, string>>;
  readonly body?: string | FormData | URLSearchParams;
}

/** A request on the wire. */
type Exchange = (request: HttpRequest, signal: AbortSignal) => Promise<WireResponse>;

/** What the rate-limit hooks see of a response: its status and headers. */
export interface ResponseHead {
  readonly status: number;
  readonly headers: Headers;
}

export interface HttpResponse {
  readonly status: number;
  readonly headers: Headers;
  /** The parsed JSON body, or the raw text when it is not JSON, or null when empty. */
  readonly body: unknown;
}

/** A provider's reading of its own error bodies. */
export interface ErrorDescription {
  readonly message: string;
  readonly fieldErrors?: FieldError[];
  /** The provider's machine-readable error code, e.g. OAuth's `invalid_grant`. */
  readonly code?: string;
}

export interface ProviderHttpOptions {
  readonly provider: ProviderKind;
  readonly policy: ResiliencePolicy;
  describeError(status: number, body: unknown): ErrorDescription;
  /** How long a 429 asks us to wait, ms; undefined → exponential backoff. */
  rateLimitWaitMs(response: ResponseHead): number | undefined;
  /** Every request through this function instead (tests); by default GETs use `nodeGet`, the rest `fetch`. */
  readonly fetch?: typeof fetch;
}

export interface SendOptions {
  readonly recorder: ApiCallRecorder;
  /** `not-processed-only` for creates: retried only when the provider certainly did nothing. */
  readonly retryMode?: RetryMode;
  /** Runs before every attempt, outside its timeout (rate-limit pauses). */
  readonly beforeAttempt?: () => Promise<void>;
  /** Wraps every attempt (per-company serialisation). */
  readonly exclusive?: <T>(fn: () => Promise<T>) => Promise<T>;
  /** Sees every response, successful or not (rate-limit headers). */
  readonly onResponse?: (response: ResponseHead) => void;
}

const NOT_PROCESSED_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN']);

/**
 * One HTTP exchange with a provider: recorded, timed out, classified, retried.
 *
 * GETs — the reads, among them the checks' paging through whole ledgers — go through `nodeGet`
 * (Node's http/https on keep-alive agents); everything else through `fetch`. undici's `fetch` spent
 * about 3 s of the daily check's CPU on its streams and another 1.2 s decoding bodies
 * (docs/performance.md); writes, rare and each possibly a booking, keep it as they were.
 */
export class ProviderHttp {
  private readonly fetchExchange: Exchange;
  private readonly getExchange: Exchange;

  constructor(private readonly options: ProviderHttpOptions) {
    this.fetchExchange = fetchExchange(options.fetch ?? fetch);
    this.getExchange = options.fetch ? this.fetchExchange : nodeGet;
  }

  send(request: HttpRequest, send: SendOptions): Promise<HttpResponse> {
    return this.options.policy.execute(
      send.retryMode ?? 'idempotent',
      (signal) => {
        const attempt = () => this.attempt(request, send, signal);
        return send.exclusive ? send.exclusive(attempt) : attempt();
      },
      send.beforeAttempt,
    );
  }

  private async attempt(request: HttpRequest, send: SendOptions, signal: AbortSignal): Promise<HttpResponse> {
    const exchange = request.method === 'GET' ? this.getExchange : this.fetchExchange;
    let response: WireResponse;
    let text: string;
    try {
      response = await exchange(request, signal);
    } catch (error) {
      send.recorder.record({ method: request.method, path: request.recordedPath, status: 0 });
      throw this.transportFailure(error, signal, true);
    }
    try {
      text = await response.text();
    } catch (error) {
      send.recorder.record({ method: request.method, path: request.recordedPath, status: response.status });
      throw this.transportFailure(error, signal, false);
    }
    send.recorder.record({ method: request.method, path: request.recordedPath, status: response.status });
    send.onResponse?.(response);
    const body = parseBody(text);
    if (response.status >= 200 && response.status < 300) {
      return { status: response.status, headers: response.headers, body };
    }
    throw this.httpFailure(response, body);
  }

  private httpFailure(response: ResponseHead, body: unknown): TransportError {
    const { provider } = this.options;
    const status = response.status;
    const described = this.options.describeError(status, body);
    const message = `${provider} answered ${status}: ${described.message}`;
    if (status === 429) {
      return new TransportError(provider, 'rate_limited', message, {
        status,
        outcomeUnknown: false,
        retryAfterMs: this.options.rateLimitWaitMs(response),
      });
    }
    if (status >= 500) {
      return new TransportError(provider, 'unavailable', message, {
        status,
        outcomeUnknown: true,
        retryAfterMs: retryAfterHeaderMs(response.headers),
      });
    }
    return new TransportError(provider, 'rejected', message, {
      status,
      fieldErrors: described.fieldErrors,
      providerCode: described.code,
      outcomeUnknown: false,
    });
  }

  private transportFailure(error: unknown, signal: AbortSignal, beforeResponse: boolean): TransportError {
    const { provider } = this.options;
    if (signal.aborted) {
      return new TransportError(
        provider,
        'timeout',
        `${provider} did not answer within ${this.options.policy.options.timeoutMs} ms`,
        {
          outcomeUnknown: true,
        },
      );
    }
    const code = errorCode(error);
    const notProcessed = beforeResponse && code !== undefined && NOT_PROCESSED_CODES.has(code);
    return new TransportError(provider, 'unavailable', `${provider} connection failed: ${code ?? describe(error)}`, {
      outcomeUnknown: !notProcessed,
    });
  }
}

/** An exchange through `fetch`: its status, headers and body text. */
function fetchExchange(fetchFn: typeof fetch): Exchange {
  return async (request, signal) => {
    const response = await fetchFn(request.url, {
      method: request.method,
      headers: request.headers,
      body: request.body,
      signal,
    });
    return { status: response.status, headers: response.headers, text: () => response.text() };
  };
}

function parseBody(text: string): unknown {
  if (text.length === 0) {
    return null;
  }
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/** `Retry-After` in seconds or as an HTTP date, in ms. */
export function retryAfterHeaderMs(headers: Headers): number | undefined {
  const value = headers.get('retry-after');
  if (value === null || value.trim() === '') {
    return undefined;
  }
  const seconds = Number(value);
  if (Number.isFinite(seconds)) {
    return Math.max(0, seconds * 1000);
  }
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, at - Date.now());
}

function errorCode(error: unknown): string | undefined {
  for (let current: unknown = error, depth = 0; current instanceof Error && depth < 4; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string') {
      return code;
    }
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
