import express, { type NextFunction, type Request, type Response, type Router } from 'express';
import type { CallLog } from '../control/call-log';
import { applyFaults, recordCalls, setCompany } from '../faults/fault-middleware';
import type { FaultRegistry } from '../faults/fault-registry';
import { sleep } from '../shared/http';
import { registerFikenApiRoutes } from './fiken-api.routes';
import {
  fikenApiBase,
  sendFikenMessage,
  sendFikenOAuthError,
  sendFikenServerError,
  type FikenCall,
} from './fiken-http';
import { fikenOAuthRouter } from './fiken-oauth';
import type { FikenState } from './fiken-state';

const COMPANY_PATH = /^\/companies\/([^/]+)/;

function bearer(req: Request): string | undefined {
  const match = /^Bearer\s+(\S+)$/i.exec(req.get('authorization') ?? '');
  return match?.[1];
}

/** Ties the call to a company (slug in the path, else the token's grant) so faults can target it. */
function identify(state: FikenState) {
  return (req: Request, res: Response, next: NextFunction): void => {
    const token = bearer(req);
    const grant = token ? state.grantOfAccessToken(token) : undefined;
    const slug = COMPANY_PATH.exec(req.path)?.[1] ?? (grant ? state.company(grant.companyIndex).slug : undefined);
    if (slug) setCompany(res, slug, [slug]);
    // Fiken allows "a single concurrent API-request", read as per application (OAuth client), whatever the company.
    res.locals.fikenClientKey = grant ? `client:${grant.clientId}` : undefined;
    next();
  };
}

/**
 * One request at a time per application: a call arriving while another of the same OAuth client is in flight
 * gets 429 (every other one with `Retry-After: 1`). The slot is held until the response is sent.
 */
function oneAtATime(state: FikenState) {
  return (_req: Request, res: Response, next: NextFunction): void => {
    const key = res.locals.fikenClientKey as string | undefined;
    if (!key) {
      next();
      return;
    }
    if (!state.enter(key)) {
      if (state.retryAfterOnRejection()) res.set('Retry-After', '1');
      sendFikenMessage(res, 429, 'Too many concurrent requests. Fiken allows one request at a time per client.');
      return;
    }
    let released = false;
    const release = (): void => {
      if (released) return;
      released = true;
      state.leave(key);
    };
    res.on('finish', release);
    res.on('close', release);
    next();
  };
}

/** Slows a client down to the configured requests per second (off unless configured). */
function pace(state: FikenState) {
  return async (_req: Request, res: Response, next: NextFunction): Promise<void> => {
    const key = res.locals.fikenClientKey as string | undefined;
    const delay = key ? state.paceDelay(key) : 0;
    if (delay > 0) await sleep(delay);
    next();
  };
}

function authenticate(state: FikenState) {
  return (req: Request, res: Response, next: NextFunction): void => {
    const token = bearer(req);
    const result = token ? state.authenticate(token) : ({ refused: 'unknown' } as const);
    if ('refused' in result) {
      const description = {
        unknown: 'The access token is missing or invalid',
        expired: 'The access token expired',
        revoked: 'The access token has been revoked',
      }[result.refused];
      res.set('WWW-Authenticate', `Bearer error="invalid_token", error_description="${description}"`);
      sendFikenOAuthError(res, 401, 'invalid_token', description);
      return;
    }
    const granted = state.company(result.grant.companyIndex);
    const slug = COMPANY_PATH.exec(req.path)?.[1];
    if (slug !== undefined && slug !== granted.slug) {
      if (!state.companyBySlug(slug)) sendFikenMessage(res, 404, `Company ${slug} not found`);
      else sendFikenMessage(res, 403, `Access to company ${slug} denied`);
      return;
    }
    const call: FikenCall = { grant: result.grant, company: granted, apiBase: fikenApiBase(req, state.options) };
    res.locals.fiken = call;
    next();
  };
}

/** The Fiken sandbox: OAuth under `/oauth`, the API under `/api/v2`. */
export function fikenRouter(state: FikenState, faults: FaultRegistry, log: CallLog): Router {
  const root = express.Router();
  root.use(recordCalls('fiken', log, state.options.now));
  const responders = {
    serverError: (res: Response, status: number) => sendFikenServerError(res, status),
    rateLimited: (res: Response, omitRetryHeader: boolean | undefined) => {
      if (omitRetryHeader !== true) res.set('Retry-After', '1');
      sendFikenMessage(res, 429, 'Too many requests');
    },
  };

  const oauth = express.Router();
  oauth.use(['/token', '/revoke'], applyFaults('fiken', faults, 0, responders));
  oauth.use(fikenOAuthRouter(state));
  root.use('/oauth', oauth);

  const api = express.Router();
  api.use(identify(state));
  api.use(oneAtATime(state));
  api.use(applyFaults('fiken', faults, state.options.latency.fiken, responders));
  api.use(pace(state));
  api.use(authenticate(state));
  api.use(express.json({ limit: '2mb' }));
  registerFikenApiRoutes(api, state);
  api.use((req: Request, res: Response) => sendFikenMessage(res, 404, `No endpoint ${req.method} ${req.path}`));
  api.use((error: unknown, _req: Request, res: Response, next: NextFunction) => {
    if (res.headersSent) {
      next(error);
      return;
    }
    const failure = error as { type?: string; message?: string };
    if (failure.type === 'entity.parse.failed') {
      sendFikenMessage(res, 400, `Malformed JSON: ${failure.message ?? ''}`);
      return;
    }
    sendFikenServerError(res, 500);
  });
  root.use('/api/v2', api);
  return root;
}
