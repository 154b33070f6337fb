import { startTestApp, type TestApp } from './support/test-app';
import { makeKey, sign, validClaims, writeJwks } from './support/gateway-keys';

const HOUR = 3600_000;

describe('gateway key rotation (docs/api.md §2)', () => {
  let t: TestApp;
  const rotation = new Date('2026-11-01T12:00:00.000Z');
  const oldKey = makeKey('gw-2026-q3', new Date('2026-08-01T00:00:00.000Z'));
  const newKey = makeKey('gw-2026-q4', rotation);
  const futureKey = makeKey('gw-2027-q1', new Date(rotation.getTime() + 48 * HOUR));

  beforeAll(async () => {
    t = await startTestApp();
    writeJwks(t.jwksFile, [oldKey, newKey, futureKey]);
  });
  afterAll(async () => t.close());

  const call = (key = oldKey) =>
    t.http.get('/v1/whoami').set('Authorization', `Bearer ${sign(key, validClaims(t.company, t.clock.now()))}`);

  it('accepts the old key 23 h 59 m after its successor was activated', async () => {
    t.clock.set(new Date(rotation.getTime() + 23 * HOUR + 59 * 60_000));
    expect((await call(oldKey)).status).toBe(200);
    expect((await call(newKey)).status).toBe(200);
  });

  it('refuses the old key 24 h 1 m after its successor was activated', async () => {
    t.clock.set(new Date(rotation.getTime() + 24 * HOUR + 60_000));
    const res = await call(oldKey);
    expect(res.status).toBe(401);
    expect(res.body.code).toBe('invalid_token');
    expect((await call(newKey)).status).toBe(200);
  });

  it('does not accept a key whose activatedAt is still in the future', async () => {
    t.clock.set(new Date(rotation.getTime() + 24 * HOUR));
    const res = await call(futureKey);
    expect(res.status).toBe(401);
    expect(res.body.code).toBe('invalid_token');
  });

  it('accepts the future key once it is activated', async () => {
    t.clock.set(new Date(rotation.getTime() + 48 * HOUR + 1000));
    expect((await call(futureKey)).status).toBe(200);
    expect((await call(newKey)).status).toBe(200); // within its own grace
  });

  it('refuses a key removed from the JWKS at once (a compromised key)', async () => {
    t.clock.set(new Date(rotation.getTime() + HOUR));
    expect((await call(newKey)).status).toBe(200);
    writeJwks(t.jwksFile, [oldKey, futureKey]);
    const res = await call(newKey);
    expect(res.status).toBe(401);
    expect(res.body.code).toBe('invalid_token');
    expect((await call(oldKey)).status).toBe(200); // the old key has no activated successor now
  });
});
