import { Writable } from 'node:stream';
import { startTestApp, type TestApp } from './support/test-app';
import { ProbeController } from './support/probe.controller';
import { PEOPLE } from './support/proposals';

// In a file of its own: the logger of the first service a test file starts serves the others.
describe('logged errors', () => {
  let t: TestApp;
  const lines: string[] = [];

  beforeAll(async () => {
    t = await startTestApp({
      controllers: [ProbeController],
      env: { LOG_LEVEL: 'error' },
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
});
