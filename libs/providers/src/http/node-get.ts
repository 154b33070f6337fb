import * as http from 'node:http';
import * as https from 'node:https';
import { createGunzip } from 'node:zlib';

/** A response on the wire: its status and headers once they arrive, its body on demand. */
export interface WireResponse {
  readonly status: number;
  readonly headers: Headers;
  text(): Promise<string>;
}

export interface GetRequest {
  readonly url: string;
  readonly headers?: Readonly<Record<string, string>>;
}

const MAX_REDIRECTS = 5;
const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/**
 * An idle kept-alive connection is closed after this long, before a server's usual 5 s keep-alive
 * timeout closes it just as a request goes out on it (ECONNRESET); `fetch` keeps them 4 s too. A
 * server's shorter `Keep-Alive: timeout=` is honoured, a second early — which Node's agent does only
 * when it has a timeout of its own.
 */
const IDLE_SOCKET_MS = 4_000;

/** Keep-alive connections per provider host, as `fetch` keeps them. */
const agents = {
  'http:': new http.Agent({ keepAlive: true, timeout: IDLE_SOCKET_MS }),
  'https:': new https.Agent({ keepAlive: true, timeout: IDLE_SOCKET_MS }),
};

/**
 * A GET over Node's http/https on keep-alive agents: the body arrives as Buffers and is decoded
 * once, where `fetch` wraps every chunk in web streams and decodes through a TextDecoder. Like
 * `fetch` it asks for gzip and inflates it, follows up to five redirects (without the
 * `Authorization` header once the origin changes) and stops at `signal`; a failure before the
 * response carries Node's error code (ECONNREFUSED…), which the caller classifies.
 */
export async function nodeGet(request: GetRequest, signal: AbortSignal): Promise<WireResponse> {
  let url = new URL(request.url);
  let headers: Record<string, string> = { 'accept-encoding': 'gzip', ...request.headers };
  for (let redirects = 0; ; redirects++) {
    const response = await open(url, headers, signal);
    const location = response.headers.location;
    if (!REDIRECTS.has(response.statusCode ?? 0) || location === undefined || redirects === MAX_REDIRECTS) {
      return { status: response.statusCode ?? 0, headers: toHeaders(response.headers), text: () => readText(response) };
    }
    response.resume();
    const next = new URL(location, url);
    if (next.origin !== url.origin) headers = withoutAuthorization(headers);
    url = next;
  }
}

function open(url: URL, headers: Record<string, string>, signal: AbortSignal): Promise<http.IncomingMessage> {
  const protocol = url.protocol === 'https:' ? 'https:' : url.protocol === 'http:' ? 'http:' : undefined;
  if (protocol === undefined) return Promise.reject(new TypeError(`unsupported protocol ${url.protocol}`));
  const request = protocol === 'https:' ? https.request : http.request;
  return new Promise((resolve, reject) => {
    const outgoing = request(url, { method: 'GET', headers, agent: agents[protocol], signal }, resolve);
    outgoing.once('error', reject);
    outgoing.end();
  });
}

async function readText(response: http.IncomingMessage): Promise<string> {
  let body: AsyncIterable<Buffer> = response;
  if (response.headers['content-encoding'] === 'gzip') {
    const gunzip = createGunzip();
    response.once('error', (error) => gunzip.destroy(error));
    response.once('aborted', () => gunzip.destroy(new Error('the response was cut off')));
    body = response.pipe(gunzip);
  }
  const chunks: Buffer[] = [];
  for await (const chunk of body) chunks.push(chunk);
  return Buffer.concat(chunks).toString('utf8');
}

function toHeaders(incoming: http.IncomingHttpHeaders): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(incoming)) {
    if (value === undefined) continue;
    if (Array.isArray(value)) for (const item of value) headers.append(name, item);
    else headers.set(name, value);
  }
  return headers;
}

function withoutAuthorization(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).filter(([name]) => name.toLowerCase() !== 'authorization'));
}
