import request from 'supertest';
import {
  SANDBOX_TRIPLETEX_CONSUMER_TOKEN,
  SANDBOX_TRIPLETEX_EMPLOYEE_TOKEN,
  tripletexEmployeeToken,
} from '../constants';
import { basicSession, testSandbox, tripletexSession } from '@app/testing';

const CREATE = '/tripletex/v2/token/session/:create';

describe('Tripletex sandbox: sessions and authentication', () => {
  it('creates a session from query parameters and answers with the session value', async () => {
    const { app } = testSandbox();
    const response = await request(app).put(CREATE).query({
      consumerToken: SANDBOX_TRIPLETEX_CONSUMER_TOKEN,
      employeeToken: SANDBOX_TRIPLETEX_EMPLOYEE_TOKEN,
      expirationDate: '2026-03-18',
    });
    expect(response.status).toBe(200);
    expect(response.body.value).toEqual(
      expect.objectContaining({
        id: expect.any(Number),
        token: expect.any(String),
        expirationDate: '2026-03-18',
        consumerToken: { id: expect.any(Number), url: expect.any(String) },
        employeeToken: { id: expect.any(Number), url: expect.any(String) },
      }),
    );
  });

  it('accepts the colon of :create percent-encoded', async () => {
    const { app } = testSandbox();
    const response = await request(app).put('/tripletex/v2/token/session/%3Acreate').query({
      consumerToken: SANDBOX_TRIPLETEX_CONSUMER_TOKEN,
      employeeToken: SANDBOX_TRIPLETEX_EMPLOYEE_TOKEN,
      expirationDate: '2026-03-18',
    });
    expect(response.status).toBe(200);
  });

  it('refuses an invalid consumer token with 422, not 401', async () => {
    const { app } = testSandbox();
    const response = await request(app)
      .put(CREATE)
      .query({ consumerToken: 'nope', employeeToken: SANDBOX_TRIPLETEX_EMPLOYEE_TOKEN, expirationDate: '2026-03-18' });
    expect(response.status).toBe(422);
    expect(response.body).toMatchObject({ status: 422, code: 18000, validationMessages: [{ field: 'consumerToken' }] });
    expect(response.body.requestId).toEqual(expect.any(String));
  });

  it('refuses an unknown employee token with 403 code 9000', async () => {
    const { app } = testSandbox();
    const response = await request(app).put(CREATE).query({
      consumerToken: SANDBOX_TRIPLETEX_CONSUMER_TOKEN,
      employeeToken: 'unknown',
      expirationDate: '2026-03-18',
    });
    expect(response.status).toBe(403);
    expect(response.body).toMatchObject({ status: 403, code: 9000 });
  });

  it('refuses missing parameters with 422 validation messages', async () => {
    const { app } = testSandbox();
    const response = await request(app).put(CREATE).query({ consumerToken: SANDBOX_TRIPLETEX_CONSUMER_TOKEN });
    expect(response.status).toBe(422);
    expect(response.body.validationMessages.map((m: { field: string }) => m.field)).toEqual([
      'employeeToken',
      'expirationDate',
    ]);
  });

  it('issues a token that fails with 401 when expirationDate is today', async () => {
    const { app } = testSandbox();
    const auth = await tripletexSession(app, SANDBOX_TRIPLETEX_EMPLOYEE_TOKEN, '2026-03-16');
    const response = await request(app).get('/tripletex/v2/ledger/account').set('Authorization', auth);
    expect(response.status).toBe(401);
    expect(response.body).toEqual({
      status: 401,
      code: 3000,
      message: expect.any(String),
      link: expect.any(String),
      developerMessage: expect.any(String),
      validationMessages: null,
      requestId: expect.any(String),
    });
  });

  it('expires sessions after the configured lifetime', async () => {
    const { app, clock } = testSandbox({ tripletex: { sessionTtlSeconds: 3600 } });
    const auth = await tripletexSession(app);
    expect((await request(app).get('/tripletex/v2/ledger/vatType').set('Authorization', auth)).status).toBe(200);
    clock.advance(3_599_000);
    expect((await request(app).get('/tripletex/v2/ledger/vatType').set('Authorization', auth)).status).toBe(200);
    clock.advance(1_000);
    expect((await request(app).get('/tripletex/v2/ledger/vatType').set('Authorization', auth)).status).toBe(401);
  });

  it('ends a session at Oslo midnight of its expirationDate even inside the lifetime', async () => {
    const { app, clock } = testSandbox({ tripletex: { sessionTtlSeconds: 86_400 } });
    clock.advance(12 * 3_600_000 + 30 * 60_000); // 22:30 UTC = 23:30 Oslo on 2026-03-16
    const auth = await tripletexSession(app, SANDBOX_TRIPLETEX_EMPLOYEE_TOKEN, '2026-03-17');
    expect((await request(app).get('/tripletex/v2/department').set('Authorization', auth)).status).toBe(200);
    clock.advance(31 * 60_000);
    expect((await request(app).get('/tripletex/v2/department').set('Authorization', auth)).status).toBe(401);
  });

  it('refuses calls without Basic auth, with an unknown token, or for another company', async () => {
    const { app } = testSandbox();
    expect((await request(app).get('/tripletex/v2/employee')).status).toBe(401);
    expect((await request(app).get('/tripletex/v2/employee').set('Authorization', basicSession('forged'))).status).toBe(
      401,
    );
    const auth = await tripletexSession(app);
    const token = Buffer.from(auth.slice(6), 'base64').toString().slice(2);
    expect(
      (await request(app).get('/tripletex/v2/employee').set('Authorization', basicSession(token, '999999'))).status,
    ).toBe(403);
  });

  it('tells who the token belongs to', async () => {
    const { app, control } = testSandbox({ companies: 2 });
    const auth = await tripletexSession(app, tripletexEmployeeToken(1));
    const response = await request(app).get('/tripletex/v2/token/session/>whoAmI').set('Authorization', auth);
    expect(response.status).toBe(200);
    expect(response.body.value).toMatchObject({
      companyId: control.for('tripletex').company(1).companyId,
      employeeId: expect.any(Number),
    });
  });

  it('logs out with DELETE /token/session/{token}', async () => {
    const { app } = testSandbox();
    const auth = await tripletexSession(app);
    const token = Buffer.from(auth.slice(6), 'base64').toString().slice(2);
    expect((await request(app).delete(`/tripletex/v2/token/session/${token}`).set('Authorization', auth)).status).toBe(
      204,
    );
    expect((await request(app).get('/tripletex/v2/employee').set('Authorization', auth)).status).toBe(401);
  });

  it('sends X-Rate-Limit headers on every response and 429 once the window is spent', async () => {
    const { app, clock } = testSandbox({ tripletex: { rateLimit: { limit: 3, windowSeconds: 10 } } });
    const auth = await tripletexSession(app);
    const first = await request(app).get('/tripletex/v2/department').set('Authorization', auth);
    expect(first.headers['x-rate-limit-limit']).toBe('3');
    expect(first.headers['x-rate-limit-remaining']).toBe('1');
    expect(first.headers['x-rate-limit-reset']).toBe('10');
    await request(app).get('/tripletex/v2/department').set('Authorization', auth);
    clock.advance(4_000);
    const limited = await request(app).get('/tripletex/v2/department').set('Authorization', auth);
    expect(limited.status).toBe(429);
    expect(limited.headers['x-rate-limit-remaining']).toBe('0');
    expect(limited.headers['x-rate-limit-reset']).toBeUndefined();
    expect(limited.body).toMatchObject({ status: 429 });
    clock.advance(6_000);
    expect((await request(app).get('/tripletex/v2/department').set('Authorization', auth)).status).toBe(200);
  });
});
