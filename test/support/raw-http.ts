import * as http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RawResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** Starts listening on a free port of 127.0.0.1 (if not already) and returns the port. */
export async function listen(server: http.Server): Promise<number> {
  if (!server.listening) await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

/**
 * One request over a fresh connection, for what supertest cannot do: send only part of a body, or
 * see the answer while the body is still being sent. `body` is written as given; `end: false`
 * leaves the request open (the answer must then come without the rest of the body). Errors of
 * writing after the server answered and closed (EPIPE, ECONNRESET) do not count once the answer is in.
 */
export function rawRequest(
  port: number,
  options: { method: string; path: string; headers?: Record<string, string | number>; body?: Buffer; end?: boolean },
): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const request = http.request({
      host: '127.0.0.1',
      port,
      method: options.method,
      path: options.path,
      headers: options.headers,
      agent: false,
    });
    let answered = false;
    request.on('response', (response) => {
      answered = true;
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => {
        resolve({
          status: response.statusCode ?? 0,
          headers: response.headers,
          body: Buffer.concat(chunks).toString(),
        });
        request.destroy();
      });
      response.on('error', () => undefined);
    });
    request.on('error', (error) => {
      if (!answered) reject(error);
    });
    if (options.body) request.write(options.body);
    if (options.end !== false) request.end();
  });
}
