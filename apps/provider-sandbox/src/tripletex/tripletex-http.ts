import { createHash } from 'node:crypto';
import type { Request, Response } from 'express';
import { isIsoDate } from '../shared/dates';
import { origin, queryInt, queryString } from '../shared/http';
import type { ResolvedOptions } from '../options';
import type { TripletexCompany } from './tripletex-company';
import { sendParamError, sendTripletexError, sendValidation } from './tripletex-errors';
import { FieldsFilterError, parseFields, project, type Selection } from './tripletex-fields';
import type { TxSession } from './tripletex-model';
import { TripletexSerializer } from './tripletex-serializers';

/** The authenticated context of a Tripletex API call. */
export interface TripletexCall {
  company: TripletexCompany;
  session: TxSession;
  serializer: TripletexSerializer;
}

export function tripletexApiBase(req: Request, options: ResolvedOptions): string {
  return `${origin(req, options.publicUrl)}/tripletex/v2`;
}

export function callOf(res: Response): TripletexCall {
  return res.locals.tripletex as TripletexCall;
}

/** Parses `fields`; answers 400 code 11000 and returns undefined on a malformed or unknown filter. */
function selectionOf(req: Request, res: Response): Selection | undefined {
  try {
    return parseFields(queryString(req, 'fields'));
  } catch (error) {
    if (error instanceof FieldsFilterError) {
      sendTripletexError(res, 400, 11000, `Ulovlig felt i fields-filteret: ${error.field}`, error.message);
      return undefined;
    }
    throw error;
  }
}

function projectOrFail(
  res: Response,
  resource: Record<string, unknown>,
  selection: Selection,
): Record<string, unknown> | undefined {
  try {
    return project(resource, selection);
  } catch (error) {
    if (error instanceof FieldsFilterError) {
      sendTripletexError(res, 400, 11000, `Ulovlig felt i fields-filteret: ${error.field}`, error.message);
      return undefined;
    }
    throw error;
  }
}

export function sendValue(req: Request, res: Response, resource: Record<string, unknown>, status = 200): void {
  const selection = selectionOf(req, res);
  if (!selection) return;
  const value = projectOrFail(res, resource, selection);
  if (value) res.status(status).json({ value });
}

interface Paging {
  from: number;
  count: number;
}

/** `from` (default 0) and `count` (default 1000); answers 422 and returns undefined when malformed. */
function pagingOf(req: Request, res: Response): Paging | undefined {
  const from = queryInt(req, 'from');
  const count = queryInt(req, 'count');
  if (from === null) {
    sendParamError(res, 'from', 'Ugyldig verdi for from.');
    return undefined;
  }
  if (count === null) {
    sendParamError(res, 'count', 'Ugyldig verdi for count.');
    return undefined;
  }
  return { from: from ?? 0, count: count ?? 1000 };
}

/**
 * Sends one page of a list envelope. `itemAt` builds only the items of the page, so paging through
 * a large generated ledger stays cheap.
 */
export function sendList(
  req: Request,
  res: Response,
  total: number,
  itemAt: (index: number) => Record<string, unknown>,
  digestKey: string,
): void {
  const paging = pagingOf(req, res);
  if (!paging) return;
  const selection = selectionOf(req, res);
  if (!selection) return;
  const end = Math.min(total, paging.from + paging.count);
  const values: Record<string, unknown>[] = [];
  for (let i = paging.from; i < end; i++) {
    const value = projectOrFail(res, itemAt(i), selection);
    if (!value) return;
    values.push(value);
  }
  res.json({
    fullResultSize: total,
    from: paging.from,
    count: values.length,
    versionDigest: total === 0 ? null : createHash('sha1').update(`${digestKey}:${total}`).digest('hex').slice(0, 16),
    values,
  });
}

/**
 * Reads a required date range with an exclusive end: both must be present, valid and `from < to`
 * (the same date for both is refused with 422, as Tripletex does).
 */
export function dateRangeOf(
  req: Request,
  res: Response,
  fromName: string,
  toName: string,
): { from: string; to: string } | undefined {
  const from = queryString(req, fromName);
  const to = queryString(req, toName);
  const missing = [fromName, toName].filter((name) => !queryString(req, name));
  if (missing.length > 0) {
    sendValidation(
      res,
      'Validering feilet.',
      missing.map((field) => ({ field, message: 'Kan ikke være null.' })),
    );
    return undefined;
  }
  const malformed = [
    [fromName, from],
    [toName, to],
  ].filter(([, value]) => !isIsoDate(value));
  if (malformed.length > 0) {
    sendValidation(
      res,
      'Validering feilet.',
      malformed.map(([field]) => ({ field: field ?? null, message: 'Ugyldig dato. Bruk formatet ÅÅÅÅ-MM-DD.' })),
    );
    return undefined;
  }
  if ((from as string) >= (to as string)) {
    sendValidation(res, 'Validering feilet.', [
      { field: toName, message: `${toName} må være etter ${fromName} (${toName} er ikke inkludert i perioden).` },
    ]);
    return undefined;
  }
  return { from: from as string, to: to as string };
}

/** Parses a path id; answers 404 and returns undefined when it is not a number. */
export function idParam(req: Request, res: Response, what: string): number | undefined {
  const raw = String(req.params.id ?? '');
  if (!/^\d+$/.test(raw)) {
    sendTripletexError(res, 404, 6000, 'Objektet finnes ikke.', `${what} ${raw} not found`);
    return undefined;
  }
  return Number(raw);
}
