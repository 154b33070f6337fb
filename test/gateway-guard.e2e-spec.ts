import * as jwt from 'jsonwebtoken';
import { startTestApp, type TestApp } from './support/test-app';
import { ProbeController } from './support/probe.controller';
import { sign, validClaims } from './support/gateway-keys';
import { proposalBody } from './support/proposals';
import { buildCli } from '../apps/accounting-api/src/cli';

function b64url(value: object): string {
  return Buffer.from(JSON.stringify(value)).toString('base64url');
}

describe('the gateway token guard (docs/api.md §2)', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp({ controllers: [ProbeController] });
  });
  afterAll(async () => t.close());

  const whoami = (token?: string) => {
    const req = t.http.get('/v1/whoami');
    return token === undefined ? req : req.set('Authorization', `Bearer ${token}`);
  };

  const expectProblem = (
    res: { status: number; body: Record<string, unknown>; headers: Record<string, string> },
    status: number,
    code: string,
  ) => {
    expect({ status: res.status, code: res.body.code }).toEqual({ status, code });
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(res.body).toMatchObject({ type: `https://errors.accounting-api.dev/${code}`, status, code });
    expect(typeof res.body.requestId).toBe('string');
    expect(typeof res.body.detail).toBe('string');
    // RFC 6750 §3: a 401 names the scheme the client must use.
    if (status === 401) expect(res.headers['www-authenticate']).toMatch(/^Bearer realm="accounting-api"/);
  };

  it('accepts a valid token and returns the verified identity with effective permissions', async () => {
    const res = await whoami(
      t.token({ role: 'manager', permissions: ['query', 'monitor', 'config'], channel: 'teams' }),
    );
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      actor: 'ola@demo.no',
      company: t.company,
      channel: 'teams',
      role: 'manager',
      permissions: ['query', 'monitor'],
      tokenExpiresAt: expect.any(String),
    });
  });

  describe('check 1: the signature', () => {
    it('refuses a request without a bearer token with invalid_token', async () => {
      expectProblem(await whoami(), 401, 'invalid_token');
    });

    it('refuses garbage with invalid_token', async () => {
      expectProblem(await whoami('not.a.jwt'), 401, 'invalid_token');
    });

    it('refuses alg none with invalid_token', async () => {
      const token = `${b64url({ alg: 'none', typ: 'JWT', kid: t.key.kid })}.${b64url(validClaims(t.company, t.clock.now()))}.`;
      expectProblem(await whoami(token), 401, 'invalid_token');
    });

    it('refuses HS256 signed with the public key as the secret with invalid_token', async () => {
      const pem = t.key.publicKey.export({ type: 'spki', format: 'pem' }).toString();
      const header = b64url({ alg: 'HS256', typ: 'JWT', kid: t.key.kid });
      const body = b64url(validClaims(t.company, t.clock.now()));
      const { createHmac } = await import('node:crypto');
      const signature = createHmac('sha256', pem).update(`${header}.${body}`).digest('base64url');
      expectProblem(await whoami(`${header}.${body}.${signature}`), 401, 'invalid_token');
    });

    it('refuses a tampered payload with invalid_token', async () => {
      const [header, , signature] = t.token({ role: 'employee' }).split('.');
      const forged = b64url(validClaims(t.company, t.clock.now(), { role: 'admin' }));
      expectProblem(await whoami(`${header}.${forged}.${signature}`), 401, 'invalid_token');
    });

    it('refuses a token signed by a key the JWKS does not hold with invalid_token', async () => {
      const { makeKey } = await import('./support/gateway-keys');
      const stranger = makeKey('gateway-key-1'); // same kid, other key pair
      const token = sign(stranger, validClaims(t.company, t.clock.now()));
      expectProblem(await whoami(token), 401, 'invalid_token');
    });

    it('refuses an unknown kid with invalid_token', async () => {
      expectProblem(
        await whoami(sign(t.key, validClaims(t.company, t.clock.now()), { kid: 'nobody' })),
        401,
        'invalid_token',
      );
    });

    it('uses the current key when the token names no kid', async () => {
      expect((await whoami(sign(t.key, validClaims(t.company, t.clock.now()), { kid: null }))).status).toBe(200);
    });

    it('refuses a header naming a critical extension it does not understand (RFC 7515 §4.1.11)', async () => {
      for (const header of [{ crit: ['exp-policy'], 'exp-policy': 1 }, { crit: ['b64'], b64: false }, { crit: [] }]) {
        const token = sign(t.key, validClaims(t.company, t.clock.now()), { header });
        const res = await whoami(token);
        expectProblem(res, 401, 'invalid_token');
        expect(res.body.detail).toMatch(/critical/);
      }
    });

    it('refuses RS512 even with the right key with invalid_token', async () => {
      const token = jwt.sign(validClaims(t.company, t.clock.now()), t.key.privateKey, {
        algorithm: 'RS512',
        keyid: t.key.kid,
        noTimestamp: true,
      });
      expectProblem(await whoami(token), 401, 'invalid_token');
    });
  });

  describe('check 2: expiry', () => {
    const expiredClaims = () => {
      const iat = Math.floor(t.clock.now().getTime() / 1000) - 7200;
      return { iat, exp: iat + 3600 };
    };

    it('refuses an expired token with token_expired', async () => {
      expectProblem(await whoami(t.token(expiredClaims())), 401, 'token_expired');
    });

    it('accepts a token expired less than the 30 s leeway ago', async () => {
      const now = Math.floor(t.clock.now().getTime() / 1000);
      expect((await whoami(t.token({ iat: now - 3600, exp: now - 20 }))).status).toBe(200);
    });

    it('refuses a token both expired and badly signed with invalid_token (signature first)', async () => {
      const [header, body] = t.token(expiredClaims()).split('.');
      expectProblem(await whoami(`${header}.${body}.${'A'.repeat(342)}`), 401, 'invalid_token');
    });

    it('refuses a token expired and for an unknown company with token_expired', async () => {
      expectProblem(await whoami(t.token({ ...expiredClaims(), company_id: 'no-such-company' })), 401, 'token_expired');
    });

    it('refuses a token expired and with a wrong issuer with token_expired', async () => {
      expectProblem(await whoami(t.token({ ...expiredClaims(), iss: 'someone-else' })), 401, 'token_expired');
    });
  });

  describe('check 3: the claims', () => {
    const cases: Array<[string, Record<string, unknown>]> = [
      ['a wrong iss', { iss: 'evil-gateway' }],
      ['a missing iss', { iss: undefined }],
      ['an aud of another service', { aud: 'billing-api' }],
      ['a missing aud', { aud: undefined }],
      ['a missing sub', { sub: undefined }],
      ['a sub that is not an email', { sub: 'ola' }],
      ['a missing company_id', { company_id: undefined }],
      ['a numeric company_id', { company_id: 42 }],
      ['a missing channel', { channel: undefined }],
      ['an unknown channel', { channel: 'sms' }],
      ['a missing role', { role: undefined }],
      ['an unknown role', { role: 'owner' }],
      ['missing permissions', { permissions: undefined }],
      ['permissions that are not an array', { permissions: 'solve' }],
      ['an unknown permission group', { permissions: ['solve', 'superuser'] }],
      ['a missing iat', { iat: undefined }],
      ['a missing exp', { exp: undefined }],
      ['a string exp', { exp: 'tomorrow' }],
    ];
    it.each(cases)('refuses %s with invalid_token', async (_label, overrides) => {
      expectProblem(await whoami(t.token(overrides)), 401, 'invalid_token');
    });

    it('accepts an aud that lists this service among others', async () => {
      expect((await whoami(t.token({ aud: ['billing-api', 'accounting-api'] }))).status).toBe(200);
    });

    it('refuses exp − iat over 3600 s with invalid_token', async () => {
      const iat = Math.floor(t.clock.now().getTime() / 1000);
      expectProblem(await whoami(t.token({ iat, exp: iat + 3601 })), 401, 'invalid_token');
    });

    it('refuses iat in the future with invalid_token', async () => {
      const iat = Math.floor(t.clock.now().getTime() / 1000) + 120;
      expectProblem(await whoami(t.token({ iat, exp: iat + 3600 })), 401, 'invalid_token');
    });

    it('accepts iat within the leeway in the future', async () => {
      const iat = Math.floor(t.clock.now().getTime() / 1000) + 10;
      expect((await whoami(t.token({ iat, exp: iat + 3600 }))).status).toBe(200);
    });

    it('refuses a claims problem before an unknown company (check 3 before 4)', async () => {
      expectProblem(await whoami(t.token({ company_id: 'no-such-company', role: 'owner' })), 401, 'invalid_token');
    });
  });

  describe('check 4: the company', () => {
    it('refuses an unknown company with unknown_company', async () => {
      expectProblem(await whoami(t.token({ company_id: 'no-such-company' })), 403, 'unknown_company');
    });

    it('refuses unknown company and lacking permission with unknown_company', async () => {
      const res = await t.http
        .get('/v1/probe/config')
        .set(
          'Authorization',
          `Bearer ${t.token({ company_id: 'no-such-company', role: 'employee', permissions: ['query'] })}`,
        );
      expectProblem(res, 403, 'unknown_company');
    });

    it('accepts a company created after a refusal at once', async () => {
      const id = `late-${Date.now()}`;
      expectProblem(await whoami(t.token({ company_id: id })), 403, 'unknown_company');
      const { CompanyRepository } = await import('@app/domain');
      await t.app.get(CompanyRepository).create({ id, name: 'Late AS' });
      expect((await whoami(t.token({ company_id: id }))).status).toBe(200);
    });
  });

  describe('check 5: the permission', () => {
    it('refuses a token without the endpoint permission with permission_denied', async () => {
      const res = await t.http
        .get('/v1/probe/config')
        .set('Authorization', `Bearer ${t.token({ permissions: ['query'] })}`);
      expectProblem(res, 403, 'permission_denied');
    });

    it('caps permissions by role: an employee token listing config does not get config', async () => {
      const token = t.token({ role: 'employee', permissions: ['solve', 'query', 'facts', 'config'] });
      const res = await t.http.get('/v1/probe/config').set('Authorization', `Bearer ${token}`);
      expectProblem(res, 403, 'permission_denied');
      expect(res.body.detail).toMatch(/role employee may not hold/);
    });

    it('refuses lacking permission before insufficient role (check 5 before 6)', async () => {
      const res = await t.http
        .post('/v1/probe/approve')
        .set('Authorization', `Bearer ${t.token({ role: 'employee', permissions: ['query'] })}`);
      expectProblem(res, 403, 'permission_denied');
    });
  });

  describe('check 6: the role', () => {
    it('refuses an employee on an accountant operation with role_insufficient', async () => {
      const res = await t.http
        .post('/v1/probe/approve')
        .set('Authorization', `Bearer ${t.token({ role: 'employee', permissions: ['solve'] })}`);
      expectProblem(res, 403, 'role_insufficient');
    });

    it('lets an accountant through', async () => {
      const res = await t.http
        .post('/v1/probe/approve')
        .set('Authorization', `Bearer ${t.token({ role: 'accountant', permissions: ['solve'] })}`);
      expect(res.status).toBe(201);
    });

    it('lets a manager with monitor read monitor routes', async () => {
      const res = await t.http
        .get('/v1/probe/monitor')
        .set('Authorization', `Bearer ${t.token({ role: 'manager', permissions: ['monitor'] })}`);
      expect(res.status).toBe(200);
    });
  });

  it('refuses a route that declares no access rule (fail closed)', async () => {
    const res = await t.http.get('/v1/probe/undeclared').set('Authorization', `Bearer ${t.token()}`);
    expectProblem(res, 500, 'internal_error');
  });
});

describe('tokens of a deleted company', () => {
  let first: TestApp;
  let second: TestApp;

  beforeAll(async () => {
    const env = { COMPANY_CACHE_TTL_MS: '1000' };
    first = await startTestApp({ env });
    second = await startTestApp({ env, beside: first });
  });
  afterAll(async () => {
    await second?.close();
    await first?.close();
  });

  /** Polls until `instance` refuses the token with unknown_company; fails after 5 s. */
  async function refusedWithinSeconds(instance: TestApp, token: string): Promise<void> {
    const deadline = Date.now() + 5_000;
    for (;;) {
      const res = await instance.http.get('/v1/whoami').set('Authorization', `Bearer ${token}`);
      if (res.status === 403 && res.body.code === 'unknown_company') return;
      if (Date.now() > deadline) throw new Error(`still ${res.status} after 5 s`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  it.each([
    ['without audit events (the record goes)', false],
    ['with audit events (the record stays, marked deleted)', true],
  ])('are refused on every instance within seconds of `company delete`: %s', async (_name, withEvents) => {
    const company = await first.newCompany('deleted');
    const token = first.token({ company_id: company, sub: 'ola@demo.no', role: 'employee', permissions: ['solve'] });
    if (withEvents) {
      const submitted = await first.http
        .post('/v1/proposals')
        .set('Authorization', `Bearer ${token}`)
        .send(proposalBody());
      expect(submitted.status).toBe(201);
    }
    // Both instances have seen the company and remember it.
    expect((await first.http.get('/v1/whoami').set('Authorization', `Bearer ${token}`)).status).toBe(200);
    expect((await second.http.get('/v1/whoami').set('Authorization', `Bearer ${token}`)).status).toBe(200);

    const lines: string[] = [];
    await buildCli(
      () => first.config,
      (line) => lines.push(line),
    ).parseAsync(['node', 'cli', 'company', 'delete', company, '--yes']);
    expect(lines.join('\n')).toMatch(withEvents ? /record stays/ : /deleted company/);

    await refusedWithinSeconds(first, token);
    await refusedWithinSeconds(second, token);
    const submit = await second.http.post('/v1/proposals').set('Authorization', `Bearer ${token}`).send(proposalBody());
    expect(submit.status).toBe(403);
  });
});
