import { promisify } from 'node:util';
import { brotliDecompress, gunzip, inflate } from 'node:zlib';
import { Agent, interceptors, request, type Dispatcher, type FormData } from 'undici';

/** A response on the wire: its status and headers once they arrive, its body on demand. */
export interface WireResponse {
  readonly status: number;
  readonly headers: Headers;
  text(): Promise<string>;
}

export interface WireRequest {
  readonly method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  readonly url: string;
  readonly headers?: Readonly<Record<string, string>>;
  readonly body?: string | FormData;
}

/**
 * An idle kept-alive connection is closed after this long, before a server's usual 5 s keep-alive
 * timeout closes it just as a request goes out on it (ECONNRESET). A server's shorter
 * `Keep-Alive: timeout=` is honoured, a second early.
 */
const IDLE_SOCKET_MS = 4_000;
const KEEP_ALIVE_THRESHOLD_MS = 1_000;
const CONNECT_TIMEOUT_MS = 10_000;
const MAX_REDIRECTS = 5;

/**
 * The providers' HTTP client: undici's keep-alive connection pools (one per origin), up to five
 * redirects followed (undici drops `Authorization` when a redirect leaves the
 * origin). The caller's AbortSignal bounds each exchange, body included; the pool's own timeouts
 * only bound connecting and idling.
 */
export function providerDispatcher(): Dispatcher {
  return new Agent({
    keepAliveTimeout: IDLE_SOCKET_MS,
    keepAliveMaxTimeout: IDLE_SOCKET_MS,
    keepAliveTimeoutThreshold: KEEP_ALIVE_THRESHOLD_MS,
    connect: { timeout: CONNECT_TIMEOUT_MS },
    // The AbortSignal is the request timeout; undici's own header/body timeouts would only race it.
    headersTimeout: 0,
    bodyTimeout: 0,
  }).compose(interceptors.redirect({ maxRedirections: MAX_REDIRECTS }));
}

let shared: Dispatcher | undefined;

/** One dispatcher per process: every adapter shares its connection pools. */
export function sharedProviderDispatcher(): Dispatcher {
  shared ??= providerDispatcher();
  return shared;
}

/**
 * One exchange; a failure before the response carries Node's or undici's error code (ECONNREFUSED,
 * UND_ERR_SOCKET…), which the caller classifies.
 */
export async function exchange(dispatcher: Dispatcher, wire: WireRequest, signal: AbortSignal): Promise<WireResponse> {
  const response = await request(wire.url, {
    dispatcher,
    method: wire.method,
    headers: { 'accept-encoding': 'gzip, deflate, br', ...wire.headers },
    body: wire.body,
    signal,
  });
  const headers = toHeaders(response.headers);
  const inflate = INFLATE[headers.get('content-encoding')?.trim().toLowerCase() ?? ''];
  return {
    status: response.statusCode,
    headers,
    text: async () =>
      inflate ? (await inflate(Buffer.from(await response.body.arrayBuffer()))).toString('utf8') : response.body.text(),
  };
}

/** Compressed bodies (asked for with `accept-encoding`), inflated off the event loop's thread. */
const INFLATE: Readonly<Record<string, (data: Buffer) => Promise<Buffer>>> = {
  gzip: promisify(gunzip),
  'x-gzip': promisify(gunzip),
  deflate: promisify(inflate),
  br: promisify(brotliDecompress),
};

function toHeaders(incoming: Record<string, string | string[] | undefined>): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(incoming)) {
    if (value === undefined) continue;
    if (Array.isArray(value)) for (const item of value) headers.append(name, item);
    else headers.set(name, value);
  }
  return headers;
}
