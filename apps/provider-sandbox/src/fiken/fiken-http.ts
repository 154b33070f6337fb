import type { Request, Response } from 'express';
import type { ResolvedOptions } from '../options';
import { isIsoDate } from '../shared/dates';
import { origin, queryInt, queryString } from '../shared/http';
import type { FikenCompany } from './fiken-company';
import type { FikenGrant } from './fiken-model';

/**
 * Fiken has no documented error schema and is not uniform: validation and not-found answers carry
 * `{message}`, authentication answers `{error, error_description}`, server errors `{error}` only.
 */
export function sendFikenMessage(res: Response, status: number, message: string): void {
  res.status(status).json({ message });
}

export function sendFikenOAuthError(res: Response, status: number, error: string, description: string): void {
  res.status(status).set('Cache-Control', 'no-store').json({ error, error_description: description });
}

export function sendFikenServerError(res: Response, status: number): void {
  res.status(status).json({ error: status === 503 ? 'Service Unavailable' : 'Internal Server Error' });
}

/** The context of an authenticated Fiken API call on a company path. */
export interface FikenCall {
  grant: FikenGrant;
  company: FikenCompany;
  apiBase: string;
}

export function fikenApiBase(req: Request, options: ResolvedOptions): string {
  return `${origin(req, options.publicUrl)}/fiken/api/v2`;
}

export function fikenCallOf(res: Response): FikenCall {
  return res.locals.fiken as FikenCall;
}

/**
 * Header paging: `page` from 0, `pageSize` default 25 and at most 100; totals only in the
 * `Fiken-Api-*` headers, never in the body.
 */
export function sendPage<T>(req: Request, res: Response, total: number, itemAt: (index: number) => T): void {
  const page = queryInt(req, 'page');
  const pageSize = queryInt(req, 'pageSize');
  if (page === null || pageSize === null || pageSize === 0) {
    sendFikenMessage(res, 400, 'page and pageSize must be non-negative integers (pageSize ≥ 1)');
    return;
  }
  const size = Math.min(pageSize ?? 25, 100);
  const current = page ?? 0;
  const start = current * size;
  const items: T[] = [];
  for (let i = start; i < Math.min(total, start + size); i++) items.push(itemAt(i));
  res.set('Fiken-Api-Page', String(current));
  res.set('Fiken-Api-Page-Size', String(size));
  res.set('Fiken-Api-Page-Count', String(Math.ceil(total / size)));
  res.set('Fiken-Api-Result-Count', String(total));
  res.json(items);
}

export interface DateFilter {
  eq?: string;
  le?: string;
  lt?: string;
  ge?: string;
  gt?: string;
}

/** Reads Fiken's date filter family for a field (`date`, `dateLe`, `dateLt`, `dateGe`, `dateGt`). */
export function dateFilterOf(req: Request, res: Response, field: string): DateFilter | undefined {
  const filter: DateFilter = {
    eq: queryString(req, field),
    le: queryString(req, `${field}Le`),
    lt: queryString(req, `${field}Lt`),
    ge: queryString(req, `${field}Ge`),
    gt: queryString(req, `${field}Gt`),
  };
  for (const [suffix, value] of Object.entries(filter)) {
    if (value !== undefined && !isIsoDate(value)) {
      const name = suffix === 'eq' ? field : `${field}${suffix[0].toUpperCase()}${suffix[1]}`;
      sendFikenMessage(res, 400, `Invalid date for parameter ${name}: '${value}' (expected yyyy-MM-dd)`);
      return undefined;
    }
  }
  return filter;
}

export function matchesDate(date: string, filter: DateFilter): boolean {
  return (
    (filter.eq === undefined || date === filter.eq) &&
    (filter.le === undefined || date <= filter.le) &&
    (filter.lt === undefined || date < filter.lt) &&
    (filter.ge === undefined || date >= filter.ge) &&
    (filter.gt === undefined || date > filter.gt)
  );
}

/** The half-open [from, to) bounds a date filter implies, for index-range lookups on ordered ledgers. */
export function dateBounds(filter: DateFilter): { from?: string; to?: string } {
  const next = (date: string): string =>
    new Date(Date.parse(`${date}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
  const froms = [filter.eq, filter.ge, filter.gt && next(filter.gt)].filter((d): d is string => d !== undefined);
  const tos = [filter.eq && next(filter.eq), filter.lt, filter.le && next(filter.le)].filter(
    (d): d is string => d !== undefined && d !== '',
  );
  return {
    from: froms.length ? froms.sort().at(-1) : undefined,
    to: tos.length ? tos.sort()[0] : undefined,
  };
}
