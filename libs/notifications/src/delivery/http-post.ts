import { isIP } from 'node:net';
import { fetch, type Dispatcher, type Response } from 'undici';
import { isPublicAddress } from '@app/application';
import { type DeliveryResult, delivered, permanentFailure, transientFailure } from './delivery-result';
import { INTERNAL_TARGET } from './public-egress';

export interface HttpPostOptions {
  /** Total time for connecting, sending and receiving the response. */
  timeoutMs: number;
  /** The Slack-style short error code in a failed response's body is worth keeping (`no_service`). */
  keepErrorCode?: boolean;
  /** The agent the request goes through (`deliveryAgent`): in production it refuses internal addresses. */
  dispatcher: Dispatcher;
  /** Refuse a URL whose host is a literal address that is not public (production). */
  publicOnly: boolean;
}

const NOT_PUBLIC = 'channel url points to an address that is not public';

/** 408 Request Timeout, 425 Too Early, 429 Too Many Requests: the receiver asks us to come back. */
const RETRYABLE_4XX = new Set([408, 425, 429]);
const ERROR_CODE = /^[a-z][a-z0-9_]{0,63}$/;
const RESPONSE_PEEK_BYTES = 256;

/** `Retry-After` in seconds or as an HTTP date, in ms from now; undefined when absent or invalid. */
export function parseRetryAfter(value: string | null, now: Date): number | undefined {
  if (!value) return undefined;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  const date = Date.parse(trimmed);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now.getTime());
}

function field(value: unknown, key: string): unknown {
  return typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[key] : undefined;
}

/** Whether the connection was refused because the host resolved to an internal address. */
function refusedAsInternal(error: unknown): boolean {
  return field(field(error, 'cause'), 'code') === INTERNAL_TARGET || field(error, 'code') === INTERNAL_TARGET;
}

/**
 * Duck-typed on purpose: fetch's errors may come from another realm (a test sandbox), where
 * `instanceof Error` is false.
 */
function describeNetworkError(error: unknown, timeoutMs: number): string {
  const name = field(error, 'name');
  if (name === 'TimeoutError' || name === 'AbortError') return `timed out after ${timeoutMs} ms`;
  const code = field(field(error, 'cause'), 'code') ?? field(error, 'code');
  // Only error codes are kept: undici's messages can quote the address, and a Slack URL is a credential.
  return typeof code === 'string' && /^[A-Z0-9_]{1,64}$/.test(code) ? `network error: ${code}` : 'network error';
}

async function peekErrorCode(response: Response): Promise<string | undefined> {
  const reader = response.body?.getReader();
  if (!reader) return undefined;
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    while (size < RESPONSE_PEEK_BYTES) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      size += value.length;
    }
  } finally {
    await reader.cancel().catch(() => undefined);
  }
  const text = Buffer.concat(chunks).toString('utf8').trim();
  return ERROR_CODE.test(text) ? text : undefined;
}

async function discard(response: Response): Promise<void> {
  await response.body?.cancel().catch(() => undefined);
}

/**
 * POSTs bytes and classifies the answer: 2xx delivered; 408/425/429, 5xx, timeouts and network
 * errors transient; other statuses (including redirects, which are not followed so that a signed
 * body never travels to a host nobody configured) permanent. With `publicOnly`, a target whose
 * address (literal, or resolved when connecting) is not public is a permanent failure, and nothing
 * is sent.
 */
export async function postBytes(
  url: string,
  body: Uint8Array,
  headers: Record<string, string>,
  options: HttpPostOptions,
  now: () => Date = () => new Date(),
): Promise<DeliveryResult> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return permanentFailure('invalid channel url');
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') {
    return permanentFailure(`unsupported channel url scheme ${parsed.protocol}`);
  }
  const host = parsed.hostname.replace(/^\[|\]$/g, '');
  // A literal address is connected to without a lookup, so it is checked here.
  if (options.publicOnly && isIP(host) !== 0 && !isPublicAddress(host)) return permanentFailure(NOT_PUBLIC);

  let response: Response;
  try {
    response = await fetch(parsed, {
      method: 'POST',
      headers,
      body,
      redirect: 'manual',
      signal: AbortSignal.timeout(options.timeoutMs),
      dispatcher: options.dispatcher,
    });
  } catch (error) {
    if (refusedAsInternal(error)) return permanentFailure(NOT_PUBLIC);
    return transientFailure(describeNetworkError(error, options.timeoutMs));
  }

  const status = response.status;
  if (status >= 200 && status < 300) {
    await discard(response);
    return delivered(status);
  }
  let code: string | undefined;
  if (options.keepErrorCode) code = await peekErrorCode(response).catch(() => undefined);
  else await discard(response);
  const error = `http ${status}${code ? ` ${code}` : ''}`;
  if (status >= 500 || RETRYABLE_4XX.has(status)) {
    const retryAfterMs = parseRetryAfter(response.headers.get('retry-after'), now());
    return transientFailure(error, { status, ...(retryAfterMs === undefined ? {} : { retryAfterMs }) });
  }
  return permanentFailure(error, status);
}
