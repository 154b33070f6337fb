import pino, { type LoggerOptions } from 'pino';
import { Writable } from 'node:stream';
import { loadConfig } from '../config/app-config';
import { loggerParams, REDACTED, scrubSecrets } from './logging';

describe('log redaction', () => {
  /** A pino logger with the service's own options (scrubbing, serializers), writing into `lines`. */
  function serviceLogger() {
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk, _encoding, done) {
        lines.push(String(chunk));
        done();
      },
    });
    const options = loggerParams(loadConfig({ NODE_ENV: 'test' })).pinoHttp as LoggerOptions;
    const { formatters, serializers } = options;
    return { logger: pino({ formatters, serializers }, sink), text: () => lines.join('') };
  }

  it('removes authorization headers, tokens, keys and receipts from log lines, at any depth', () => {
    const { logger, text } = serviceLogger();
    const logged = {
      req: { headers: { authorization: 'Bearer eyJhbGciOiJSUzI1NiJ9.secret-token', cookie: 'sid=1' } },
      accessToken: 'fiken-access-123',
      connection: { refreshToken: 'fiken-refresh-456', employeeToken: 'tt-employee-789' },
      deep: { vault: { dek: 'c2VjcmV0LWRlaw==' } },
      deeper: { a: { b: { c: { clientSecret: 'four-levels-down' } } } },
      receipts: [{ dataBase64: 'JVBERi0xLjQK' }],
      merchant: 'Spotify AB',
    };
    logger.info(logged);
    const line = text();
    for (const secret of [
      'secret-token',
      'sid=1',
      'fiken-access-123',
      'fiken-refresh-456',
      'tt-employee-789',
      'c2VjcmV0LWRlaw==',
      'four-levels-down',
      'JVBERi0xLjQK',
    ]) {
      expect(line).not.toContain(secret);
    }
    expect(line).toContain('Spotify AB');
    expect(JSON.parse(line)).toMatchObject({
      connection: { refreshToken: REDACTED },
      receipts: [{ dataBase64: REDACTED }],
    });
    // The caller's object is left as it was.
    expect(logged.connection.refreshToken).toBe('fiken-refresh-456');
  });

  it('removes them from errors too, keeping the error message and stack', () => {
    const { logger, text } = serviceLogger();
    const error = Object.assign(new Error('the provider refused'), {
      config: { headers: { authorization: 'Bearer leaked-in-error' } },
      token: 'error-token',
    });
    logger.error({ err: error, during: Object.assign(new Error('nested'), { password: 'nested-password' }) });
    const line = text();
    expect(line).not.toContain('leaked-in-error');
    expect(line).not.toContain('error-token');
    expect(line).not.toContain('nested-password');
    expect(JSON.parse(line).err).toMatchObject({ message: 'the provider refused', stack: expect.any(String) });
  });

  it('leaves the request and the response to their serializers: two fields each', () => {
    const { logger, text } = serviceLogger();
    const req = { id: 'r-1', method: 'POST', headers: { authorization: 'Bearer in-request' } };
    logger.info({ req, res: { statusCode: 201, socket: { bytes: 1 } }, responseTime: 3 });
    expect(JSON.parse(text())).toMatchObject({ req: { id: 'r-1', method: 'POST' }, res: { statusCode: 201 } });
    expect(text()).not.toContain('in-request');
    expect(text()).not.toContain('socket');
  });

  it('censors an object nested deeper than it looks whole, and keeps dates', () => {
    let nested: Record<string, unknown> = { token: 'too-deep' };
    for (let i = 0; i < 10; i++) nested = { inner: nested };
    const at = new Date('2026-11-28T12:00:00Z');
    expect(JSON.stringify(scrubSecrets({ nested, at }))).not.toContain('too-deep');
    expect((scrubSecrets({ at }) as { at: Date }).at).toBe(at);
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
