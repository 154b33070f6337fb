import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { SANDBOX_TRIPLETEX_CONSUMER_TOKEN } from '../constants';
import { setCompany } from '../faults/fault-middleware';
import { isIsoDate, osloMidnight } from '../shared/dates';
import { queryString } from '../shared/http';
import type { TripletexCompany } from './tripletex-company';
import { sendTripletexError, sendUnauthorized, sendValidation } from './tripletex-errors';
import { tripletexApiBase, type TripletexCall } from './tripletex-http';
import type { TxSession } from './tripletex-model';
import { TripletexSerializer } from './tripletex-serializers';
import type { TripletexState } from './tripletex-state';

export const SESSION_CREATE_PATH = /^\/token\/session\/(?::|%3A)create$/i;
export const WHO_AM_I_PATH = /^\/token\/session\/(?:>|%3E)whoAmI$/i;

/** Reads `Authorization: Basic base64("<company>:<sessionToken>")`. */
function basicCredentials(req: Request): { user: string; token: string } | undefined {
  const header = req.get('authorization');
  const match = header ? /^Basic\s+(\S+)$/i.exec(header) : null;
  if (!match) return undefined;
  const decoded = Buffer.from(match[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return undefined;
  return { user: decoded.slice(0, colon), token: decoded.slice(colon + 1) };
}

/**
 * Ties the call to a company before faults are decided (so faults can target one company) and
 * counts it against the employee token's rate window: `X-Rate-Limit-*` on every response (the 429
 * without `X-Rate-Limit-Reset`, as Tripletex's own), 429 once
 * the window is spent.
 */
export function identifyTripletexCall(state: TripletexState): RequestHandler {
  return (req: Request, res: Response, next: NextFunction) => {
    let company: TripletexCompany | undefined;
    const credentials = basicCredentials(req);
    if (credentials) {
      const session = state.sessions.get(credentials.token);
      if (session) company = state.company(session.companyIndex);
    } else if (SESSION_CREATE_PATH.test(req.path)) {
      const employeeToken = queryString(req, 'employeeToken');
      if (employeeToken) company = state.companyByEmployeeToken(employeeToken);
    }
    if (company) setCompany(res, String(company.id), [String(company.id), company.employeeToken]);
    const window = state.countCall(company?.employeeToken ?? `anonymous:${req.ip ?? ''}`);
    res.set('X-Rate-Limit-Limit', String(window.limit));
    res.set('X-Rate-Limit-Remaining', String(window.remaining));
    res.set('X-Rate-Limit-Reset', String(window.resetSeconds));
    if (!window.allowed) {
      // As Tripletex's: the 429 itself says how many calls remain (none), not when the window resets.
      res.removeHeader('X-Rate-Limit-Reset');
      sendTripletexError(res, 429, 429, 'For mange forespørsler. Vent til perioden er over.', 'Rate limit exceeded');
      return;
    }
    next();
  };
}

/** Authenticates every call except session creation; answers 401 code 3000 otherwise. */
export function authenticateTripletex(state: TripletexState): RequestHandler {
  return (req: Request, res: Response, next: NextFunction) => {
    if (SESSION_CREATE_PATH.test(req.path)) {
      next();
      return;
    }
    const credentials = basicCredentials(req);
    if (!credentials) {
      sendUnauthorized(res, 'Missing or malformed Authorization header; expected Basic base64("0:" + sessionToken)');
      return;
    }
    const session = state.sessions.get(credentials.token);
    if (!session) {
      sendUnauthorized(res, 'Unknown session token');
      return;
    }
    if (state.options.now().getTime() >= session.expiresAt) {
      sendUnauthorized(res, 'The session token has expired');
      return;
    }
    const company = state.company(session.companyIndex);
    if (credentials.user !== '' && credentials.user !== '0' && credentials.user !== String(company.id)) {
      sendTripletexError(
        res,
        403,
        9000,
        'Du har ikke tilgang til dette firmaet.',
        `No login access to company ${credentials.user}`,
      );
      return;
    }
    const call: TripletexCall = {
      company,
      session,
      serializer: new TripletexSerializer(tripletexApiBase(req, state.options), company),
    };
    res.locals.tripletex = call;
    next();
  };
}

function sessionValue(req: Request, state: TripletexState, session: TxSession): Record<string, unknown> {
  const base = tripletexApiBase(req, state.options);
  const company = state.company(session.companyIndex);
  return {
    id: session.id,
    version: 0,
    url: `${base}/token/session/${session.id}`,
    consumerToken: { id: 1, url: `${base}/token/consumer/1` },
    employeeToken: { id: 1_000 + company.index, url: `${base}/token/employee/${1_000 + company.index}` },
    expirationDate: session.expirationDate,
    token: session.token,
    encryptionKey: null,
  };
}

/** `PUT /token/session/:create?consumerToken&employeeToken&expirationDate` (query parameters, no body). */
export function createSession(state: TripletexState): RequestHandler {
  return (req: Request, res: Response) => {
    const consumerToken = queryString(req, 'consumerToken');
    const employeeToken = queryString(req, 'employeeToken');
    const expirationDate = queryString(req, 'expirationDate');
    const missing = (
      [
        ['consumerToken', consumerToken],
        ['employeeToken', employeeToken],
        ['expirationDate', expirationDate],
      ] as const
    ).filter(([, value]) => !value);
    if (missing.length > 0) {
      sendValidation(
        res,
        'Validering feilet.',
        missing.map(([field]) => ({ field, message: 'Kan ikke være null.' })),
      );
      return;
    }
    if (!isIsoDate(expirationDate)) {
      sendValidation(res, 'Validering feilet.', [
        { field: 'expirationDate', message: 'Ugyldig dato. Bruk formatet ÅÅÅÅ-MM-DD.' },
      ]);
      return;
    }
    if (consumerToken !== SANDBOX_TRIPLETEX_CONSUMER_TOKEN) {
      sendValidation(res, 'Validering feilet.', [{ field: 'consumerToken', message: 'Ugyldig consumer token.' }]);
      return;
    }
    const company = state.companyByEmployeeToken(employeeToken as string);
    if (!company) {
      sendTripletexError(
        res,
        403,
        9000,
        'Ugyldig employee token.',
        'The employee token is unknown, revoked or belongs to another consumer',
      );
      return;
    }
    const now = state.options.now().getTime();
    const expiresAt = Math.min(
      now + state.options.tripletex.sessionTtlSeconds * 1000,
      osloMidnight(expirationDate).getTime(),
    );
    const session = state.createSession(company, consumerToken, expirationDate, expiresAt);
    res.status(200).json({ value: sessionValue(req, state, session) });
  };
}

/** `GET /token/session/>whoAmI`. */
export function whoAmI(): RequestHandler {
  return (_req: Request, res: Response) => {
    const { company, serializer } = res.locals.tripletex as TripletexCall;
    const employee = serializer.employee(company.employeeId) as { id: number; url: string };
    res.json({
      value: {
        employeeId: company.employeeId,
        employee: { id: employee.id, url: employee.url },
        actualEmployeeId: company.employeeId,
        actualEmployee: { id: employee.id, url: employee.url },
        companyId: company.id,
        company: { id: company.id, url: employee.url.replace(/employee\/\d+$/, `company/${company.id}`) },
        language: 'no',
      },
    });
  };
}

/** `DELETE /token/session/{token}`: ends the session. */
export function deleteSession(state: TripletexState): RequestHandler {
  return (req: Request, res: Response) => {
    const token = String(req.params.token ?? '');
    const { session } = res.locals.tripletex as TripletexCall;
    if (token !== session.token) {
      sendTripletexError(res, 404, 6000, 'Objektet finnes ikke.', 'Session not found');
      return;
    }
    state.sessions.delete(token);
    res.status(204).end();
  };
}
