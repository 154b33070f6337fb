import pino from 'pino';
import { Writable } from 'node:stream';
import { REDACT_PATHS } from './logging';

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
