import type { SandboxExchange } from '@app/sandbox';

/**
 * Fiken's OAuth endpoints are described in the definition's introduction ("Authorization with
 * OAuth2"), not as operations: these rules are that text. Authorize: `response_type=code`,
 * `client_id`, `redirect_uri` and `state` required. Token: form-encoded, HTTP Basic client
 * credentials; `grant_type=authorization_code` needs `code`, `redirect_uri` and `state`;
 * `grant_type=refresh_token` needs `refresh_token`. Answers: `access_token`, `refresh_token`,
 * `token_type`, `expires_in`; errors `{error, error_description}`.
 */
export function checkFikenOAuth(exchange: SandboxExchange): string[] {
  const problems: string[] = [];
  const { method, path } = exchange;
  if (method === 'GET' && path === '/authorize') {
    if (exchange.query.get('response_type') !== 'code') problems.push('response_type must be code');
    for (const name of ['client_id', 'redirect_uri', 'state']) {
      if (!exchange.query.get(name)) problems.push(`${name} is required`);
    }
  } else if (method === 'POST' && path === '/authorize') {
    // The sandbox's own consent form, posted by the browser: not part of Fiken's API.
  } else if (method === 'POST' && path === '/token') {
    problems.push(...checkTokenRequest(exchange));
    problems.push(...checkTokenAnswer(exchange));
  } else if (method === 'POST' && path === '/revoke') {
    if (!/^Bearer\s+\S+$/i.test(String(exchange.requestHeaders.authorization ?? ''))) {
      problems.push('revocation authenticates with the access token as a Bearer token');
    }
  } else {
    problems.push('no such OAuth endpoint');
  }
  return problems.map((p) => `fiken OAuth ${method} ${path}: ${p}`);
}

const TOKEN_PARAMETERS: Readonly<Record<string, readonly string[]>> = {
  authorization_code: ['grant_type', 'code', 'redirect_uri', 'state'],
  refresh_token: ['grant_type', 'refresh_token'],
};

function checkTokenRequest(exchange: SandboxExchange): string[] {
  const problems: string[] = [];
  if (!/^Basic\s+[A-Za-z0-9+/]+=*$/.test(String(exchange.requestHeaders.authorization ?? ''))) {
    problems.push('the client authenticates with HTTP Basic (client id and secret)');
  }
  const body = exchange.requestBody;
  if (body.kind === 'unread') return problems;
  if (body.kind !== 'form') return [...problems, 'the body must be application/x-www-form-urlencoded'];
  const grant = body.fields.grant_type ?? '';
  const expected = TOKEN_PARAMETERS[grant];
  if (!expected) return [...problems, `grant_type ${grant || '(missing)'} is not authorization_code or refresh_token`];
  for (const name of expected) if (!body.fields[name]) problems.push(`${name} is required for ${grant}`);
  for (const name of Object.keys(body.fields)) {
    if (!expected.includes(name)) problems.push(`${name} is not a parameter of ${grant}`);
  }
  return problems;
}

function checkTokenAnswer(exchange: SandboxExchange): string[] {
  const body = exchange.responseBody as Record<string, unknown> | undefined;
  if (exchange.status === 200) {
    const problems: string[] = [];
    for (const name of ['access_token', 'refresh_token', 'token_type']) {
      if (typeof body?.[name] !== 'string') problems.push(`the answer lacks ${name}`);
    }
    if (typeof body?.expires_in !== 'number') problems.push('the answer lacks expires_in');
    return problems;
  }
  if (exchange.status >= 400 && exchange.status < 500) {
    return typeof body?.error === 'string' && typeof body.error_description === 'string'
      ? []
      : [`a refusal without {error, error_description}`];
  }
  return [];
}
