import type { Request } from 'express';
import multer from 'multer';

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** `scheme://host` of the request, used to build `url` fields and `Location` headers. */
export function origin(req: Request, publicUrl: string | undefined): string {
  if (publicUrl) return publicUrl.replace(/\/+$/, '');
  return `${req.protocol}://${req.get('host') ?? 'localhost'}`;
}

/** Reads a query parameter as a single string (first value wins). */
export function queryString(req: Request, name: string): string | undefined {
  const value = (req.query as Record<string, unknown>)[name];
  if (Array.isArray(value)) return typeof value[0] === 'string' ? value[0] : undefined;
  return typeof value === 'string' ? value : undefined;
}

/** Parses a non-negative integer query parameter; `null` when present but malformed. */
export function queryInt(req: Request, name: string): number | undefined | null {
  const raw = queryString(req, name);
  if (raw === undefined || raw === '') return undefined;
  if (!/^\d+$/.test(raw)) return null;
  return Number(raw);
}

export function queryBool(req: Request, name: string): boolean | undefined {
  const raw = queryString(req, name);
  if (raw === undefined) return undefined;
  return raw === 'true' || raw === '1';
}

/** Multipart parsing into memory; receipts are small and only their metadata is kept. */
export const receiptUpload = multer({
  storage: multer.memoryStorage(),
  limits: { fileSize: 20 * 1024 * 1024, files: 1 },
});

/** Replaces ids and UUIDs in a path so call counters group by route. */
export function routeShape(path: string): string {
  return path
    .split('?')[0]
    .replace(/\/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}(?=\/|$)/gi, '/:uuid')
    .replace(/\/\d+(?=\/|$)/g, '/:id');
}
