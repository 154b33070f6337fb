import request from 'supertest';
import { SANDBOX_FIKEN_CLIENT_ID, SANDBOX_FIKEN_CLIENT_SECRET } from '../constants';
import { fikenAuthorize, fikenClientAuth, SANDBOX_REDIRECT_URI, testSandbox } from '@app/testing';

const token = (app: Parameters<typeof request>[0], form: Record<string, string>, auth = fikenClientAuth()) =>
  request(app).post('/fiken/oauth/token').set('Authorization', auth).type('form').send(form);

describe('Fiken sandbox: OAuth', () => {
  it('shows an authorize page with Approve and Deny buttons', async () => {
    const { app } = testSandbox();
    const response = await request(app).get('/fiken/oauth/authorize').query({
      response_type: 'code',
      client_id: SANDBOX_FIKEN_CLIENT_ID,
      redirect_uri: SANDBOX_REDIRECT_URI,
      state: 'xyz',
    });
    expect(response.status).toBe(200);
    expect(response.type).toBe('text/html');
    expect(response.text).toContain('value="approve"');
    expect(response.text).toContain('value="deny"');
    expect(response.text).toContain('name="state" value="xyz"');
  });

  it('refuses an unknown client on the authorize page without redirecting', async () => {
    const { app } = testSandbox();
    const response = await request(app)
      .get('/fiken/oauth/authorize')
      .query({ response_type: 'code', client_id: 'other', redirect_uri: SANDBOX_REDIRECT_URI, state: 's' });
    expect(response.status).toBe(400);
  });

  it('redirects back with code and state on approval, error=access_denied on denial', async () => {
    const { app } = testSandbox();
    const form = {
      client_id: SANDBOX_FIKEN_CLIENT_ID,
      redirect_uri: SANDBOX_REDIRECT_URI,
      state: 'abc',
      company: 'demo-fiken-as',
    };
    const approved = await request(app)
      .post('/fiken/oauth/authorize')
      .type('form')
      .send({ ...form, decision: 'approve' });
    expect(approved.status).toBe(302);
    const back = new URL(approved.headers.location as string);
    expect(`${back.origin}${back.pathname}`).toBe(SANDBOX_REDIRECT_URI);
    expect(back.searchParams.get('code')).toEqual(expect.any(String));
    expect(back.searchParams.get('state')).toBe('abc');
    const denied = await request(app)
      .post('/fiken/oauth/authorize')
      .type('form')
      .send({ ...form, decision: 'deny' });
    const deniedUrl = new URL(denied.headers.location as string);
    expect(deniedUrl.searchParams.get('error')).toBe('access_denied');
    expect(deniedUrl.searchParams.get('state')).toBe('abc');
    expect(deniedUrl.searchParams.get('code')).toBeNull();
  });

  it('exchanges a code once, only with the same redirect_uri and client credentials', async () => {
    const { app } = testSandbox();
    const codeFor = async () => {
      const approved = await request(app).post('/fiken/oauth/authorize').type('form').send({
        client_id: SANDBOX_FIKEN_CLIENT_ID,
        redirect_uri: SANDBOX_REDIRECT_URI,
        state: 's',
        decision: 'approve',
      });
      return new URL(approved.headers.location as string).searchParams.get('code') ?? '';
    };
    const code = await codeFor();
    const badClient = await token(
      app,
      { grant_type: 'authorization_code', code, redirect_uri: SANDBOX_REDIRECT_URI, state: 's' },
      fikenClientAuth(SANDBOX_FIKEN_CLIENT_ID, 'wrong'),
    );
    expect(badClient.status).toBe(401);
    expect(badClient.body).toMatchObject({ error: 'invalid_client' });
    const ok = await token(app, {
      grant_type: 'authorization_code',
      code,
      redirect_uri: SANDBOX_REDIRECT_URI,
      state: 's',
    });
    expect(ok.status).toBe(200);
    expect(ok.body).toEqual({
      access_token: expect.any(String),
      refresh_token: expect.any(String),
      token_type: 'bearer',
      expires_in: 3600,
      scope: expect.any(String),
    });
    const reused = await token(app, {
      grant_type: 'authorization_code',
      code,
      redirect_uri: SANDBOX_REDIRECT_URI,
      state: 's',
    });
    expect(reused.status).toBe(400);
    expect(reused.body).toEqual({ error: 'invalid_grant', error_description: expect.any(String) });
    const other = await codeFor();
    const mismatch = await token(app, {
      grant_type: 'authorization_code',
      code: other,
      redirect_uri: 'http://localhost:3000/elsewhere',
      state: 's',
    });
    expect(mismatch.body).toMatchObject({ error: 'invalid_grant' });
  });

  it('requires the state of the authorize request at the code exchange, as the definition lists it', async () => {
    const { app } = testSandbox();
    const codeFor = async () => {
      const approved = await request(app).post('/fiken/oauth/authorize').type('form').send({
        client_id: SANDBOX_FIKEN_CLIENT_ID,
        redirect_uri: SANDBOX_REDIRECT_URI,
        state: 's',
        decision: 'approve',
      });
      return new URL(approved.headers.location as string).searchParams.get('code') ?? '';
    };
    const missing = await token(app, {
      grant_type: 'authorization_code',
      code: await codeFor(),
      redirect_uri: SANDBOX_REDIRECT_URI,
    });
    expect(missing.status).toBe(400);
    expect(missing.body).toEqual({ error: 'invalid_request', error_description: expect.stringContaining('state') });
    const other = await token(app, {
      grant_type: 'authorization_code',
      code: await codeFor(),
      redirect_uri: SANDBOX_REDIRECT_URI,
      state: 'another',
    });
    expect(other.body).toMatchObject({ error: 'invalid_grant' });
  });

  it('refuses an authorize request without state', async () => {
    const { app } = testSandbox();
    const response = await request(app)
      .get('/fiken/oauth/authorize')
      .query({ response_type: 'code', client_id: SANDBOX_FIKEN_CLIENT_ID, redirect_uri: SANDBOX_REDIRECT_URI });
    expect(response.status).toBe(302);
    expect(new URL(response.headers.location as string).searchParams.get('error')).toBe('invalid_request');
  });

  it('compares the Basic client credentials as sent: a form-encoded secret is refused', async () => {
    const { app } = testSandbox();
    expect(SANDBOX_FIKEN_CLIENT_SECRET).not.toBe(encodeURIComponent(SANDBOX_FIKEN_CLIENT_SECRET));
    const approved = await request(app).post('/fiken/oauth/authorize').type('form').send({
      client_id: SANDBOX_FIKEN_CLIENT_ID,
      redirect_uri: SANDBOX_REDIRECT_URI,
      state: 's',
      decision: 'approve',
    });
    const code = new URL(approved.headers.location as string).searchParams.get('code') ?? '';
    const form = { grant_type: 'authorization_code', code, redirect_uri: SANDBOX_REDIRECT_URI, state: 's' };
    const encoded = await token(
      app,
      form,
      fikenClientAuth(SANDBOX_FIKEN_CLIENT_ID, encodeURIComponent(SANDBOX_FIKEN_CLIENT_SECRET)),
    );
    expect(encoded.status).toBe(401);
    expect(encoded.body).toMatchObject({ error: 'invalid_client' });
    expect((await token(app, form)).status).toBe(200);
  });

  it('expires authorization codes', async () => {
    const { app, clock } = testSandbox({ fiken: { authorizationCodeTtlSeconds: 60 } });
    const approved = await request(app).post('/fiken/oauth/authorize').type('form').send({
      client_id: SANDBOX_FIKEN_CLIENT_ID,
      redirect_uri: SANDBOX_REDIRECT_URI,
      state: 's',
      decision: 'approve',
    });
    clock.advance(61_000);
    const code = new URL(approved.headers.location as string).searchParams.get('code') ?? '';
    expect(
      (await token(app, { grant_type: 'authorization_code', code, redirect_uri: SANDBOX_REDIRECT_URI, state: 's' }))
        .body,
    ).toMatchObject({ error: 'invalid_grant' });
  });

  it('rotates the refresh token: the old one is invalid_grant after use', async () => {
    const { app } = testSandbox();
    const first = await fikenAuthorize(app);
    const refreshed = await token(app, { grant_type: 'refresh_token', refresh_token: first.refresh_token });
    expect(refreshed.status).toBe(200);
    expect(refreshed.body.refresh_token).not.toBe(first.refresh_token);
    expect(refreshed.body.access_token).not.toBe(first.access_token);
    const replay = await token(app, { grant_type: 'refresh_token', refresh_token: first.refresh_token });
    expect(replay.status).toBe(400);
    expect(replay.body).toEqual({ error: 'invalid_grant', error_description: expect.any(String) });
    expect(
      (await token(app, { grant_type: 'refresh_token', refresh_token: refreshed.body.refresh_token })).status,
    ).toBe(200);
  });

  it('lets exactly one of several parallel refreshes with the same token succeed', async () => {
    const { app } = testSandbox();
    const first = await fikenAuthorize(app);
    const results = await Promise.all(
      Array.from({ length: 5 }, () => token(app, { grant_type: 'refresh_token', refresh_token: first.refresh_token })),
    );
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    expect(results.filter((r) => r.status === 400)).toHaveLength(4);
  });

  it('expires access tokens after expires_in and refuses them with 401', async () => {
    const { app, clock } = testSandbox({ fiken: { accessTokenTtlSeconds: 120 } });
    const tokens = await fikenAuthorize(app);
    expect(tokens.expires_in).toBe(120);
    const call = () =>
      request(app).get('/fiken/api/v2/companies').set('Authorization', `Bearer ${tokens.access_token}`);
    expect((await call()).status).toBe(200);
    clock.advance(120_000);
    const expired = await call();
    expect(expired.status).toBe(401);
    expect(expired.body).toMatchObject({ error: 'invalid_token' });
  });

  it('revokes the grant: access token 401 and refresh invalid_grant', async () => {
    const { app } = testSandbox();
    const tokens = await fikenAuthorize(app);
    const revoke = await request(app)
      .post('/fiken/oauth/revoke')
      .set('Authorization', fikenClientAuth())
      .type('form')
      .send({ token: tokens.refresh_token });
    expect(revoke.status).toBe(200);
    expect(
      (await request(app).get('/fiken/api/v2/companies').set('Authorization', `Bearer ${tokens.access_token}`)).status,
    ).toBe(401);
    expect((await token(app, { grant_type: 'refresh_token', refresh_token: tokens.refresh_token })).body).toMatchObject(
      { error: 'invalid_grant' },
    );
  });

  it('refuses an unsupported grant type', async () => {
    const { app } = testSandbox();
    expect((await token(app, { grant_type: 'password' })).body).toMatchObject({ error: 'unsupported_grant_type' });
  });
});
