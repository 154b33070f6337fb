import type { NextFunction, Request, RequestHandler, Response } from 'express';
import type { CallLog } from '../control/call-log';
import { routeShape, sleep } from '../shared/http';
import type { FaultRegistry } from './fault-registry';
import type { ProviderName } from './fault-spec';

/** Company keys of the current call, set by the provider's identification middleware. */
function companyKeysOf(res: Response): string[] {
  return (res.locals.companyKeys as string[] | undefined) ?? [];
}

export function setCompany(res: Response, label: string | undefined, keys: string[]): void {
  res.locals.companyLabel = label;
  res.locals.companyKeys = keys;
}

/** Records every call of a provider (mounted at the provider's root) once it is answered or dropped. */
export function recordCalls(provider: ProviderName, log: CallLog, now: () => Date): RequestHandler {
  return (req: Request, res: Response, next: NextFunction) => {
    const relative = req.path;
    let recorded = false;
    const record = (dropped: boolean): void => {
      if (recorded) return;
      recorded = true;
      log.add({
        provider,
        method: req.method,
        route: routeShape(relative),
        path: relative,
        status: res.statusCode,
        company: res.locals.companyLabel as string | undefined,
        dropped,
        at: now().toISOString(),
      });
    };
    res.on('finish', () => record(false));
    res.on('close', () => record(!res.writableFinished));
    next();
  };
}

export interface FaultResponders {
  serverError(res: Response, status: number): void;
  /** `omitRetryHeader` undefined: the provider's own default (Tripletex omits, Fiken sends Retry-After). */
  rateLimited(res: Response, omitRetryHeader: boolean | undefined): void;
}

/**
 * Applies injected faults and the configured base latency to a provider's API calls: latency first,
 * then a dropped connection, a 5xx or a 429; `afterHandling` drops lose only the response.
 */
export function applyFaults(
  provider: ProviderName,
  faults: FaultRegistry,
  baseLatencyMs: number,
  responders: FaultResponders,
): RequestHandler {
  return async (req: Request, res: Response, next: NextFunction) => {
    const decision = faults.decide({
      provider,
      method: req.method,
      path: req.originalUrl.split('?')[0],
      companyKeys: companyKeysOf(res),
    });
    const latency = baseLatencyMs + decision.latencyMs;
    if (latency > 0) await sleep(latency);
    if (decision.drop === 'before') {
      req.socket.destroy();
      return;
    }
    if (decision.serverError !== null) {
      responders.serverError(res, decision.serverError);
      return;
    }
    if (decision.rateLimited) {
      responders.rateLimited(res, decision.rateLimited.omitRetryHeader);
      return;
    }
    if (decision.hideResults) {
      const json = res.json.bind(res);
      res.json = ((body: unknown) => json(emptied(body))) as Response['json'];
    }
    if (decision.drop === 'after') {
      res.end = function dropInsteadOfAnswering(this: Response): Response {
        req.socket.destroy();
        return this;
      } as Response['end'];
    }
    next();
  };
}

/**
 * A list answer with nothing in it: Fiken's array emptied, Tripletex's `values` emptied and its
 * counts zeroed. Anything else (a single resource, an error) is left as it is.
 */
function emptied(body: unknown): unknown {
  if (Array.isArray(body)) return [];
  if (typeof body === 'object' && body !== null && Array.isArray((body as { values?: unknown }).values)) {
    return { ...body, fullResultSize: 0, count: 0, values: [] };
  }
  return body;
}
