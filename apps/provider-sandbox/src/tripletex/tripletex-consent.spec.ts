import request from 'supertest';
import { tripletexEmployeeToken } from '../constants';
import { testSandbox, tripletexSession } from '@app/testing';

const REDIRECT = 'http://localhost:3000/v1/oauth/tripletex/callback';

describe('Tripletex sandbox: consent page', () => {
  it('shows Approve and Deny for a valid redirect_uri and refuses an invalid one', async () => {
    const { app } = testSandbox();
    const page = await request(app).get('/tripletex/consent').query({ redirect_uri: REDIRECT, state: 'st' });
    expect(page.status).toBe(200);
    expect(page.text).toContain('value="approve"');
    expect(page.text).toContain('value="deny"');
    expect(
      (await request(app).get('/tripletex/consent').query({ redirect_uri: 'javascript:alert(1)', state: 'st' })).status,
    ).toBe(400);
  });

  it('redirects back with an employee token as code that opens a session', async () => {
    const { app } = testSandbox({ companies: 2 });
    const approved = await request(app)
      .post('/tripletex/consent')
      .type('form')
      .send({ redirect_uri: REDIRECT, state: 'st', company: '1', decision: 'approve' });
    expect(approved.status).toBe(302);
    const back = new URL(approved.headers.location as string);
    expect(back.searchParams.get('state')).toBe('st');
    const code = back.searchParams.get('code') ?? '';
    expect(code).toBe(tripletexEmployeeToken(1));
    await expect(tripletexSession(app, code)).resolves.toMatch(/^Basic /);
  });

  it('redirects back with error=access_denied when the user refuses', async () => {
    const { app } = testSandbox();
    const denied = await request(app)
      .post('/tripletex/consent')
      .type('form')
      .send({ redirect_uri: REDIRECT, state: 'st', decision: 'deny' });
    const back = new URL(denied.headers.location as string);
    expect(back.searchParams.get('error')).toBe('access_denied');
    expect(back.searchParams.get('state')).toBe('st');
    expect(back.searchParams.get('code')).toBeNull();
  });
});
