import { registerEntitlementRoutes } from './tripletex-entitlements';
import express, { type NextFunction, type Request, type Response, type Router } from 'express';
import type { CallLog } from '../control/call-log';
import { applyFaults, recordCalls } from '../faults/fault-middleware';
import type { FaultRegistry } from '../faults/fault-registry';
import {
  SESSION_CREATE_PATH,
  WHO_AM_I_PATH,
  authenticateTripletex,
  createSession,
  deleteSession,
  identifyTripletexCall,
  whoAmI,
} from './tripletex-auth';
import { tripletexConsentRouter } from './tripletex-consent';
import { registerContextRoutes } from './tripletex-context.routes';
import { sendTripletexError } from './tripletex-errors';
import { registerLedgerRoutes } from './tripletex-ledger.routes';
import { registerSupplierInvoiceRoutes } from './tripletex-supplier-invoices';
import type { TripletexState } from './tripletex-state';

/** The Tripletex sandbox: `/consent` and the API under `/v2`. */
export function tripletexRouter(state: TripletexState, faults: FaultRegistry, log: CallLog): Router {
  const root = express.Router();
  root.use(recordCalls('tripletex', log, state.options.now));
  root.use(tripletexConsentRouter(state));

  const api = express.Router();
  api.use(identifyTripletexCall(state));
  api.use(
    applyFaults('tripletex', faults, state.options.latency.tripletex, {
      serverError: (res, status) =>
        sendTripletexError(res, status, 1000, 'En uventet feil oppstod. Prøv igjen senere.', 'Injected server error'),
      rateLimited: (res, omitRetryHeader) => {
        res.set('X-Rate-Limit-Remaining', '0');
        // Tripletex's own 429 carries no X-Rate-Limit-Reset: left out unless the fault asks for it.
        if (omitRetryHeader !== false) res.removeHeader('X-Rate-Limit-Reset');
        else res.set('X-Rate-Limit-Reset', '2');
        sendTripletexError(res, 429, 429, 'For mange forespørsler. Vent til perioden er over.', 'Rate limit exceeded');
      },
    }),
  );
  api.use(express.json({ limit: '2mb' }));
  api.use(authenticateTripletex(state));
  api.put(SESSION_CREATE_PATH, createSession(state));
  api.get(WHO_AM_I_PATH, whoAmI());
  api.delete('/token/session/:token', deleteSession(state));
  registerEntitlementRoutes(api, state);
  registerLedgerRoutes(api, state);
  registerSupplierInvoiceRoutes(api);
  registerContextRoutes(api, state);
  api.use((req: Request, res: Response) => {
    sendTripletexError(res, 404, 6000, 'Objektet finnes ikke.', `No endpoint ${req.method} ${req.path}`);
  });
  api.use((error: unknown, _req: Request, res: Response, next: NextFunction) => {
    if (res.headersSent) {
      next(error);
      return;
    }
    const failure = error as { type?: string; status?: number; message?: string };
    if (failure.type === 'entity.parse.failed') {
      sendTripletexError(res, 422, 22000, 'Ugyldig JSON i forespørselen.', failure.message ?? 'Invalid JSON');
      return;
    }
    sendTripletexError(res, 500, 1000, 'En uventet feil oppstod.', failure.message ?? 'Internal error');
  });

  root.use('/v2', api);
  return root;
}
