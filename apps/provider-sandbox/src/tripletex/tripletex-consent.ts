import express, { type Request, type Response, type Router } from 'express';
import { tripletexEmployeeToken } from '../constants';
import { escapeHtml, page, redirectBack, validRedirectUri } from '../shared/consent-page';
import type { TripletexState } from './tripletex-state';

/**
 * Tripletex has no OAuth; the sandbox's consent page stands in for the customer creating an
 * employee token: Approve redirects to `redirect_uri?code=<employee token>&state=…`,
 * Deny to `redirect_uri?error=access_denied&state=…`.
 */
export function tripletexConsentRouter(state: TripletexState): Router {
  const router = express.Router();
  router.use(express.urlencoded({ extended: false }));

  router.get('/consent', (req: Request, res: Response) => {
    const redirectUri = typeof req.query.redirect_uri === 'string' ? req.query.redirect_uri : '';
    const stateParam = typeof req.query.state === 'string' ? req.query.state : '';
    if (!validRedirectUri(redirectUri)) {
      res.status(400).type('html').send(page('Ugyldig forespørsel', '<p>redirect_uri mangler eller er ugyldig.</p>'));
      return;
    }
    const requested = typeof req.query.company === 'string' ? Number(req.query.company) : 0;
    const shown = Math.min(state.companyCount, 50);
    const options = Array.from({ length: shown }, (_, i) => {
      const company = state.company(i);
      return `<option value="${i}"${i === requested ? ' selected' : ''}>${escapeHtml(company.name)} (${company.organizationNumber})</option>`;
    }).join('');
    res.type('html').send(
      page(
        'Tripletex (sandkasse): gi tilgang',
        `<p>En integrasjon ber om en API-nøkkel (employee token) for firmaet ditt.</p>
<form method="post" action="consent">
  <input type="hidden" name="redirect_uri" value="${escapeHtml(redirectUri)}">
  <input type="hidden" name="state" value="${escapeHtml(stateParam)}">
  <label>Firma <select name="company">${options}</select></label>
  <p><button type="submit" name="decision" value="approve">Godkjenn</button>
  <button type="submit" name="decision" value="deny">Avslå</button></p>
</form>`,
      ),
    );
  });

  router.post('/consent', (req: Request, res: Response) => {
    const body = (req.body ?? {}) as Record<string, string | undefined>;
    const redirectUri = body.redirect_uri ?? '';
    if (!validRedirectUri(redirectUri)) {
      res.status(400).type('html').send(page('Ugyldig forespørsel', '<p>redirect_uri mangler eller er ugyldig.</p>'));
      return;
    }
    if (body.decision !== 'approve') {
      redirectBack(res, redirectUri, {
        error: 'access_denied',
        error_description: 'Brukeren avslo forespørselen.',
        state: body.state,
      });
      return;
    }
    const index = Number(body.company ?? 0);
    if (!Number.isInteger(index) || index < 0 || index >= state.companyCount) {
      res.status(400).type('html').send(page('Ugyldig forespørsel', '<p>Ukjent firma.</p>'));
      return;
    }
    redirectBack(res, redirectUri, { code: tripletexEmployeeToken(index), state: body.state });
  });

  return router;
}
