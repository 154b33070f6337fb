import type { IncomingHttpHeaders, OutgoingHttpHeaders } from 'node:http';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import type { ProviderName } from '../faults/fault-spec';

/** The body of a request as the sandbox read it. */
export type ExchangeBody =
  | { readonly kind: 'none' }
  /** The sandbox answered before reading the body (a refusal before parsing). */
  | { readonly kind: 'unread' }
  | { readonly kind: 'json'; readonly value: unknown }
  | { readonly kind: 'form'; readonly fields: Readonly<Record<string, string>> }
  | {
      readonly kind: 'multipart';
      readonly fields: Readonly<Record<string, string>>;
      readonly files: ReadonlyArray<{ field: string; filename: string; contentType: string; size: number }>;
    };

/** One answered request to a provider surface of the sandbox, as seen on the wire. */
export interface SandboxExchange {
  readonly provider: ProviderName;
  /** `api`: the provider's REST API; `oauth`: Fiken's OAuth endpoints (`/authorize`, `/token`, `/revoke`). */
  readonly surface: 'api' | 'oauth';
  readonly method: string;
  /** The path under the surface's root, percent-decoded: `/ledger/voucher`, `/companies/x/purchases`, `/token`. */
  readonly path: string;
  readonly query: URLSearchParams;
  readonly requestHeaders: IncomingHttpHeaders;
  readonly requestBody: ExchangeBody;
  readonly status: number;
  readonly responseHeaders: OutgoingHttpHeaders;
  /** The parsed JSON answer, its text when it is not JSON, or undefined when empty. */
  readonly responseBody: unknown;
}

export type ExchangeInspector = (exchange: SandboxExchange) => void;

const inspectors = new Set<ExchangeInspector>();

/**
 * Shows every answered provider request of every sandbox in this process to `inspector` (tests
 * check them against the providers' published definitions). Returns the function that stops it.
 * Without an inspector the sandboxes do no extra work.
 */
export function inspectSandboxExchanges(inspector: ExchangeInspector): () => void {
  inspectors.add(inspector);
  return () => inspectors.delete(inspector);
}

const SURFACES: ReadonlyArray<{ prefix: string; provider: ProviderName; surface: 'api' | 'oauth' }> = [
  { prefix: '/tripletex/v2', provider: 'tripletex', surface: 'api' },
  { prefix: '/fiken/api/v2', provider: 'fiken', surface: 'api' },
  { prefix: '/fiken/oauth', provider: 'fiken', surface: 'oauth' },
];

/** Mounted at the sandbox's root: captures requests and answers while an inspector is installed. */
export function exchangeTap(): RequestHandler {
  return (req: Request, res: Response, next: NextFunction) => {
    if (inspectors.size === 0) {
      next();
      return;
    }
    const [rawPath, search = ''] = req.originalUrl.split('?', 2);
    const surface = SURFACES.find((s) => rawPath === s.prefix || rawPath.startsWith(`${s.prefix}/`));
    if (!surface) {
      next();
      return;
    }
    const chunks: Buffer[] = [];
    const write = res.write.bind(res) as (...args: unknown[]) => boolean;
    const end = res.end.bind(res) as (...args: unknown[]) => Response;
    const keep = (chunk: unknown, encoding: unknown): void => {
      if (typeof chunk === 'string')
        chunks.push(Buffer.from(chunk, typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8'));
      else if (chunk instanceof Uint8Array) chunks.push(Buffer.from(chunk));
    };
    res.write = ((chunk: unknown, encoding?: unknown, callback?: unknown) => {
      keep(chunk, encoding);
      return write(chunk, encoding, callback);
    }) as Response['write'];
    res.end = ((chunk?: unknown, encoding?: unknown, callback?: unknown) => {
      if (typeof chunk !== 'function') keep(chunk, encoding);
      return end(chunk, encoding, callback);
    }) as Response['end'];
    res.on('finish', () => {
      const exchange: SandboxExchange = {
        provider: surface.provider,
        surface: surface.surface,
        method: req.method,
        path: safeDecode(rawPath.slice(surface.prefix.length)) || '/',
        query: new URLSearchParams(search),
        requestHeaders: req.headers,
        requestBody: bodyOf(req),
        status: res.statusCode,
        responseHeaders: res.getHeaders(),
        responseBody: parse(Buffer.concat(chunks).toString('utf8')),
      };
      for (const inspector of inspectors) inspector(exchange);
    });
    next();
  };
}

function bodyOf(req: Request): ExchangeBody {
  const type = (req.headers['content-type'] ?? '').toLowerCase();
  const hasBody = req.headers['content-length'] !== undefined || req.headers['transfer-encoding'] !== undefined;
  const body = req.body as unknown;
  if (!hasBody || (req.headers['content-length'] === '0' && body === undefined)) return { kind: 'none' };
  if (body === undefined) return { kind: 'unread' };
  if (type.startsWith('multipart/form-data')) {
    const files = [req.file, ...(Array.isArray(req.files) ? req.files : [])].filter((f) => f !== undefined);
    return {
      kind: 'multipart',
      fields: { ...(body as Record<string, string>) },
      files: files.map((f) => ({
        field: f.fieldname,
        filename: f.originalname,
        contentType: f.mimetype,
        size: f.size,
      })),
    };
  }
  if (type.startsWith('application/x-www-form-urlencoded')) {
    return { kind: 'form', fields: { ...(body as Record<string, string>) } };
  }
  return { kind: 'json', value: body };
}

function parse(text: string): unknown {
  if (text === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

function safeDecode(path: string): string {
  try {
    return decodeURIComponent(path);
  } catch {
    return path;
  }
}
