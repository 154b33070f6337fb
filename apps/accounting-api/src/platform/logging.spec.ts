import pino from 'pino';
import { Writable } from 'node:stream';
import { loadConfig } from '../config/app-config';
import { loggerParams, REDACT_PATHS } from './logging';

describe('log redaction', () => {
  it('removes authorization headers, tokens, keys and receipts from log lines', () => {
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk, _encoding, done) {
        lines.push(String(chunk));
        done();
      },
    });
    const logger = pino({ redact: { paths: REDACT_PATHS, censor: '[redacted]' } }, sink);
    logger.info({
      req: { headers: { authorization: 'Bearer eyJhbGciOiJSUzI1NiJ9.secret-token', cookie: 'sid=1' } },
      accessToken: 'fiken-access-123',
      connection: { refreshToken: 'fiken-refresh-456', employeeToken: 'tt-employee-789' },
      deep: { vault: { dek: 'c2VjcmV0LWRlaw==' } },
      receipt: { dataBase64: 'JVBERi0xLjQK' },
      merchant: 'Spotify AB',
    });
    const line = lines.join('');
    for (const secret of [
      'secret-token',
      'sid=1',
      'fiken-access-123',
      'fiken-refresh-456',
      'tt-employee-789',
      'c2VjcmV0LWRlaw==',
      'JVBERi0xLjQK',
    ]) {
      expect(line).not.toContain(secret);
    }
    expect(line).toContain('Spotify AB');
  });
});

describe('log format', () => {
  const transportOf = (env: Record<string, string>) =>
    (loggerParams(loadConfig(env)).pinoHttp as { transport?: { target: string } }).transport;

  it('is readable (pino-pretty) with LOG_FORMAT=pretty, and JSON lines by default outside a terminal', () => {
    expect(transportOf({ LOG_FORMAT: 'pretty' })).toMatchObject({ target: 'pino-pretty' });
    expect(transportOf({ LOG_FORMAT: 'json' })).toBeUndefined();
    expect(transportOf({ NODE_ENV: 'test' })).toBeUndefined();
  });

  it('refuses another format', () => {
    expect(() => loadConfig({ LOG_FORMAT: 'xml' })).toThrow(/LOG_FORMAT must be json or pretty/);
  });
});
