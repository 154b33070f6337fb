import { Writable } from 'node:stream';
import { startTestApp, type TestApp } from './support/test-app';
import { ProbeController } from './support/probe.controller';
import { PEOPLE } from './support/proposals';

// In a file of its own: the logger of the first service a test file starts serves the others.
describe('logged requests and errors', () => {
  let t: TestApp;
  const lines: string[] = [];

  beforeAll(async () => {
    t = await startTestApp({
      controllers: [ProbeController],
      env: { LOG_LEVEL: 'info' },
      logDestination: new Writable({
        write(chunk, _encoding, done) {
          lines.push(String(chunk));
          done();
        },
      }),
    });
  });
  afterAll(async () => t.close());

  const auth = () => ({ Authorization: `Bearer ${t.token(PEOPLE.employee)}` });

  it('logs a database error without its statement and bound values', async () => {
    const res = await t.http.get('/v1/probe/db-error').set(auth());
    expect(res.status).toBe(500);
    const logged = lines.join('');
    expect(logged).toContain(res.body.errorId);
    expect(logged).toMatch(/division by zero/);
    expect(logged).not.toContain('Kiwi Majorstuen');
    expect(logged).not.toContain('SELECT $1');
    expect(logged).not.toMatch(/"detail"|"where"/);
    expect(logged).not.toMatch(/"(query|parameters)"/);
  });

  /** The log lines of one request, by its request id. */
  const linesOf = (requestId: string) => lines.filter((line) => line.includes(`"id":"${requestId}"`));

  it('logs the route template of a request, not the user id in its path', async () => {
    const userId = 'kari.nordmann+x@demo.no';
    const admin = { Authorization: `Bearer ${t.token({ sub: 'admin@demo.no', role: 'admin' })}` };
    const res = await t.http.get(`/v1/config/employees/${encodeURIComponent(userId)}`).set(admin);
    expect(res.status).toBe(404);
    const logged = linesOf(String(res.headers['x-request-id'])).join('');
    expect(logged).toContain('"route":"/v1/config/employees/:userId"');
    expect(logged).not.toContain('kari');
  });

  it('logs a request that matched no route without its path', async () => {
    const res = await t.http.get('/v1/nothing-here/per.hansen%40demo.no').set(auth());
    expect(res.status).toBe(404);
    const logged = linesOf(String(res.headers['x-request-id'])).join('');
    expect(logged).toContain('"route":"unmatched"');
    expect(logged).not.toMatch(/nothing-here|per\.hansen/);
  });
});
