import type { Dispatcher, FormData } from 'undici';
import { ApiCallRecorder, FieldError, IGNORE_API_CALLS, ProviderKind, type ProviderCallOptions } from '@app/domain';
import { ResiliencePolicy, RetryMode } from './resilience';
import { TransportError } from './transport-error';
import { exchange, sharedProviderDispatcher, type WireResponse } from './undici-transport';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

export interface HttpRequest {
  readonly method: HttpMethod;
  /** Absolute URL, query string included. */
  readonly url: string;
  /** What `api_calls` shows: the path relative to the provider's base URL, no query, no secrets. */
  readonly recordedPath: string;
  readonly headers?: Readonly<Record<string, string>>;
  readonly body?: string | FormData;
}

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
  /** The undici dispatcher to send through; by default one shared by every adapter of the process. */
  readonly dispatcher?: Dispatcher;
}

/** What every request of one adapter operation shares (its ProviderCallOptions, resolved). */
export interface CallScope {
  readonly recorder: ApiCallRecorder;
  /**
   * The longest a request waits for the company's rate window to reopen, ms; a longer wait is not
   * waited and the request fails with a `windowClosed` rate_limited error (ProviderCallOptions).
   * Unsaid: the policy's `maxRetryAfterMs`.
   */
  readonly maxRateLimitWaitMs?: number;
}

/** The call scope of the ProviderCallOptions an adapter method was given. */
export function callScopeOf(options: ProviderCallOptions | undefined): CallScope {
  return { recorder: options?.recorder ?? IGNORE_API_CALLS, maxRateLimitWaitMs: options?.maxRateLimitWaitMs };
}

export interface SendOptions extends CallScope {
  /** `not-processed-only` for creates: retried only when the provider certainly did nothing. */
  readonly retryMode?: RetryMode;
  /**
   * Runs before every attempt, outside its timeout (rate-limit pauses): a pause longer than
   * `maxRateLimitWaitMs` is not waited, it throws (`windowClosedError`).
   */
  readonly beforeAttempt?: () => Promise<void>;
  /**
   * Wraps every attempt, outside its timeout (Fiken's one request at a time): the time spent
   * waiting for a turn does not count against the request.
   */
  readonly exclusive?: <T>(fn: () => Promise<T>) => Promise<T>;
  /** Sees every response, successful or not (rate-limit headers). */
  readonly onResponse?: (response: ResponseHead) => void;
  /** The company the call is made for: its own circuit breaker (docs/providers.md). */
  readonly company?: string;
}

const NOT_PROCESSED_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN']);

/**
 * One HTTP exchange with a provider: recorded, timed out, classified, retried. Every request goes
 * through undici (keep-alive pools, see undici-transport.ts).
 */
export class ProviderHttp {
  private readonly dispatcher: Dispatcher;

  constructor(private readonly options: ProviderHttpOptions) {
    this.dispatcher = options.dispatcher ?? sharedProviderDispatcher();
  }

  send(request: HttpRequest, send: SendOptions): Promise<HttpResponse> {
    return this.options.policy.execute(
      send.retryMode ?? 'idempotent',
      (signal) => this.attempt(request, send, signal),
      send.beforeAttempt,
      send.exclusive,
      send.company,
      send.maxRateLimitWaitMs,
    );
  }

  private async attempt(request: HttpRequest, send: SendOptions, signal: AbortSignal): Promise<HttpResponse> {
    let response: WireResponse;
    let text: string;
    try {
      response = await exchange(this.dispatcher, request, signal);
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
