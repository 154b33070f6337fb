import express, { type Request, type Response, type Router } from 'express';
import { SANDBOX_FIKEN_CLIENT_ID, SANDBOX_FIKEN_CLIENT_SECRET } from '../constants';
import { escapeHtml, page, redirectBack, validRedirectUri } from '../shared/consent-page';
import { sendFikenOAuthError } from './fiken-http';
import type { FikenState } from './fiken-state';

function acceptedRedirect(state: FikenState, redirectUri: string): boolean {
  if (!validRedirectUri(redirectUri)) return false;
  const registered = state.options.fiken.redirectUris;
  return !registered || registered.includes(redirectUri);
}

/**
 * Client authentication by HTTP Basic `client_id:client_secret`, compared exactly as sent: Fiken's
 * documentation asks for the id and secret as the credentials, with no form-encoding of either.
 */
function authenticatedClient(req: Request): string | undefined {
  const match = /^Basic\s+(\S+)$/i.exec(req.get('authorization') ?? '');
  if (!match) return undefined;
  const decoded = Buffer.from(match[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return undefined;
  const clientId = decoded.slice(0, colon);
  const secret = decoded.slice(colon + 1);
  return clientId === SANDBOX_FIKEN_CLIENT_ID && secret === SANDBOX_FIKEN_CLIENT_SECRET ? clientId : undefined;
}

/**
 * Fiken's OAuth 2 endpoints: an authorize page with Approve/Deny, a token endpoint (authorization
 * code, refresh token with rotation) and revocation.
 */
export function fikenOAuthRouter(state: FikenState): Router {
  const router = express.Router();
  router.use(express.urlencoded({ extended: false }));

  router.get('/authorize', (req: Request, res: Response) => {
    const query = req.query as Record<string, string | undefined>;
    const redirectUri = query.redirect_uri ?? '';
    if (query.client_id !== SANDBOX_FIKEN_CLIENT_ID || !acceptedRedirect(state, redirectUri)) {
      res
        .status(400)
        .type('html')
        .send(page('Ugyldig forespørsel', '<p>Ukjent client_id eller ugyldig redirect_uri.</p>'));
      return;
    }
    if (query.response_type !== 'code') {
      redirectBack(res, redirectUri, {
        error: 'unsupported_response_type',
        error_description: 'response_type must be code',
        state: query.state,
      });
      return;
    }
    if (!query.state) {
      redirectBack(res, redirectUri, { error: 'invalid_request', error_description: 'state is required' });
      return;
    }
    const shown = Math.min(state.companyCount, 50);
    const requested = query.company;
    const options = Array.from({ length: shown }, (_, i) => {
      const company = state.company(i);
      const selected = requested === company.slug ? ' selected' : '';
      return `<option value="${escapeHtml(company.slug)}"${selected}>${escapeHtml(company.name)}</option>`;
    }).join('');
    res.type('html').send(
      page(
        'Fiken (sandkasse): gi tilgang',
        `<p>Applikasjonen <strong>${escapeHtml(query.client_id)}</strong> ber om tilgang til regnskapet ditt.</p>
<form method="post" action="authorize">
  <input type="hidden" name="client_id" value="${escapeHtml(query.client_id)}">
  <input type="hidden" name="redirect_uri" value="${escapeHtml(redirectUri)}">
  <input type="hidden" name="state" value="${escapeHtml(query.state ?? '')}">
  <label>Firma <select name="company">${options}</select></label>
  <p><button type="submit" name="decision" value="approve">Godkjenn</button>
  <button type="submit" name="decision" value="deny">Avslå</button></p>
</form>`,
      ),
    );
  });

  router.post('/authorize', (req: Request, res: Response) => {
    const body = (req.body ?? {}) as Record<string, string | undefined>;
    const redirectUri = body.redirect_uri ?? '';
    if (body.client_id !== SANDBOX_FIKEN_CLIENT_ID || !acceptedRedirect(state, redirectUri)) {
      res
        .status(400)
        .type('html')
        .send(page('Ugyldig forespørsel', '<p>Ukjent client_id eller ugyldig redirect_uri.</p>'));
      return;
    }
    if (body.decision !== 'approve') {
      redirectBack(res, redirectUri, {
        error: 'access_denied',
        error_description: 'The user denied the request',
        state: body.state,
      });
      return;
    }
    const company = state.companyBySlug(body.company ?? state.company(0).slug);
    if (!company) {
      res.status(400).type('html').send(page('Ugyldig forespørsel', '<p>Ukjent firma.</p>'));
      return;
    }
    redirectBack(res, redirectUri, {
      code: state.issueCode(body.client_id, redirectUri, company.index, body.state ?? ''),
      state: body.state,
    });
  });

  router.post('/token', (req: Request, res: Response) => {
    const clientId = authenticatedClient(req);
    if (!clientId) {
      res.set('WWW-Authenticate', 'Basic realm="fiken"');
      sendFikenOAuthError(res, 401, 'invalid_client', 'Client authentication failed');
      return;
    }
    const body = (req.body ?? {}) as Record<string, string | undefined>;
    if (body.grant_type === 'authorization_code') {
      // The definition lists `state` as required here as well as at the authorize endpoint.
      if (!body.state) {
        sendFikenOAuthError(res, 400, 'invalid_request', 'Missing required parameter: state');
        return;
      }
      const tokens = body.code ? state.redeemCode(body.code, clientId, body.redirect_uri, body.state) : undefined;
      if (!tokens) {
        sendFikenOAuthError(res, 400, 'invalid_grant', 'The authorization code is invalid or expired.');
        return;
      }
      res.set('Cache-Control', 'no-store').json(tokens);
      return;
    }
    if (body.grant_type === 'refresh_token') {
      const tokens = body.refresh_token ? state.refresh(body.refresh_token, clientId) : undefined;
      if (!tokens) {
        sendFikenOAuthError(res, 400, 'invalid_grant', 'The refresh token is invalid, expired or revoked.');
        return;
      }
      res.set('Cache-Control', 'no-store').json(tokens);
      return;
    }
    sendFikenOAuthError(
      res,
      400,
      'unsupported_grant_type',
      `Unsupported grant_type: ${body.grant_type ?? '(missing)'}`,
    );
  });

  router.post('/revoke', (req: Request, res: Response) => {
    const clientId = authenticatedClient(req);
    if (!clientId) {
      sendFikenOAuthError(res, 401, 'invalid_client', 'Client authentication failed');
      return;
    }
    const token = (req.body as Record<string, string | undefined> | undefined)?.token;
    if (!token) {
      sendFikenOAuthError(res, 400, 'invalid_request', 'Missing token');
      return;
    }
    state.revoke(token, clientId);
    res.status(200).end();
  });

  return router;
}
