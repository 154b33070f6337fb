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

describe('logged requests', () => {
  const pinoHttp = loggerParams(loadConfig({ NODE_ENV: 'test' })).pinoHttp as {
    serializers: { req: (req: object) => object };
    customSuccessObject: (req: object, res: object, fields: object) => object;
  };

  it('name no path: the request is its id and method, the completion line adds the route template', () => {
    const request = {
      id: 'r-1',
      method: 'GET',
      url: '/v1/config/employees/kari%40demo.no?x=1',
      baseUrl: '',
      route: { path: '/v1/config/employees/:userId' },
    };
    expect(pinoHttp.serializers.req(request)).toEqual({ id: 'r-1', method: 'GET' });
    expect(pinoHttp.customSuccessObject(request, {}, { responseTime: 3 })).toEqual({
      responseTime: 3,
      route: '/v1/config/employees/:userId',
    });
  });

  it("log a request that matched no route (Nest's catch-all) as unmatched", () => {
    const request = { method: 'GET', url: '/v1/x/kari%40demo.no', baseUrl: '', route: { path: '{/*splat}' } };
    expect(pinoHttp.customSuccessObject(request, {}, {})).toEqual({ route: 'unmatched' });
    expect(pinoHttp.customSuccessObject({ ...request, route: undefined }, {}, {})).toEqual({ route: 'unmatched' });
  });
});
