import type { Server } from 'node:http';
import fc from 'fast-check';
import { Pool } from 'undici';
import { gifDeclaring, pngDeclaring, webpDeclaring } from '@app/testing';
import { ERROR_STATUS } from '../apps/accounting-api/src/http/error-codes';
import { startTestApp, type TestApp } from './support/test-app';
import { listen } from './support/raw-http';
import { PEOPLE, proposalBody } from './support/proposals';

/** Requests per run: every operation of /openapi.json, malformed every way, with each role's token and none. */
const RUNS = Number(process.env.FUZZ_RUNS ?? 10_000);
const BATCH = 5;

interface Operation {
  method: string;
  path: string;
  pathParams: string[];
  queryParams: string[];
  bodyFields: string[];
}

type Who = 'none' | 'garbage' | 'employee' | 'manager' | 'accountant' | 'admin';

interface Case {
  operation: Operation;
  who: Who;
  path: string;
  query: string;
  headers: Record<string, string>;
  body?: Buffer;
}

interface OpenApi {
  paths: Record<string, Record<string, { parameters?: Array<{ name: string; in: string }>; requestBody?: unknown }>>;
  components: { schemas: Record<string, { properties?: Record<string, unknown> }> };
}

/** Every operation with its path and query parameters and the top-level fields of its JSON body. */
function operationsOf(doc: OpenApi): Operation[] {
  return Object.entries(doc.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, operation]) => {
      const parameters = operation.parameters ?? [];
      const ref = JSON.stringify(operation.requestBody ?? {}).match(/#\/components\/schemas\/(\w+)/)?.[1];
      return {
        method: method.toUpperCase(),
        path,
        pathParams: parameters.filter((p) => p.in === 'path').map((p) => p.name),
        queryParams: parameters.filter((p) => p.in === 'query').map((p) => p.name),
        bodyFields: Object.keys((ref && doc.components.schemas[ref]?.properties) || {}),
      };
    }),
  );
}

const NASTY = [
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  '\u001b[31m',
  '\u007f',
  '\ud800',
  '💥',
  '-1',
  '0',
  '1e309',
  '-0',
  'NaN',
  'Infinity',
  '1.5',
  '0x10',
  '99999999999999999999999',
  '__proto__',
  'constructor',
  '../../etc/passwd',
  "'; DROP TABLE events; --",
  '<script>alert(1)</script>',
  '%00',
  'null',
  'true',
  '[]',
  '{}',
  'x'.repeat(300),
  'x'.repeat(1_500),
  '2026-02-30',
  '0000-00-00',
  '2026-11-20T25:00:00Z',
  'tripletex',
  'fiken',
  'ola@demo.no',
];

/** Ill-formed UTF-16: lone high and low surrogates, reversed pairs, a pair cut in half. */
const ILL_FORMED = ['\ud800', '\udfff', 'a\ud800b', '\udc00\ud800', '💥'.slice(0, 1), `Kiwi ${'💥'.slice(1)}`];

/** Dates no purchase has: the epoch, far past and far future, the ends of PostgreSQL's range and beyond. */
const FAR_DATES = [
  '0001-01-01',
  '0000-01-01',
  '1000-01-01',
  '1900-01-01',
  '1970-01-01',
  '2099-12-31',
  '2999-01-01',
  '9999-12-31',
  '+275760-09-13',
  '-000001-01-01',
  '10000-01-01',
];

/** Receipts that declare far more pixels or frames than any receipt has: pixel bombs. */
const HUGE_IMAGES = [
  { contentType: 'image/png', bytes: pngDeclaring(100_000, 100_000) },
  { contentType: 'image/png', bytes: pngDeclaring(2 ** 31 - 1, 1) },
  { contentType: 'image/webp', bytes: webpDeclaring(16_383, 16_383) },
  { contentType: 'image/gif', bytes: gifDeclaring(16_000, 16_000) },
  { contentType: 'image/gif', bytes: gifDeclaring(64, 64, 500) },
];

/** Verbatim in a URL: malformed or dangerous percent-encodings. */
const RAW_URL = ['%00', '%ZZ', '%E0%A4%A', '%2e%2e', '%C0%AF', '%FF', '%25', '%u0000', '..'];

const nastyString = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...NASTY) },
  { weight: 1, arbitrary: fc.constantFrom(...ILL_FORMED, ...FAR_DATES) },
  { weight: 2, arbitrary: fc.string({ maxLength: 40 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
  { weight: 1, arbitrary: fc.uuid() },
);

/** Percent-encodes every UTF-8 byte (a lone surrogate becomes U+FFFD, as Node encodes it). */
const percentEncoded = (value: string) =>
  [...Buffer.from(value)].map((b) => `%${b.toString(16).padStart(2, '0')}`).join('');

const urlValue = fc.oneof(
  { weight: 4, arbitrary: nastyString.map(percentEncoded) },
  { weight: 1, arbitrary: fc.constantFrom(...RAW_URL) },
  { weight: 1, arbitrary: fc.integer().map(String) },
);

/** An image receipt whose header declares any size its format allows (docs/security.md, Receipt types). */
const declaredImage = fc
  .oneof(
    fc
      .tuple(fc.integer({ min: 1, max: 16_384 }), fc.integer({ min: 1, max: 16_384 }))
      .map(([width, height]) => ({ contentType: 'image/webp', bytes: webpDeclaring(width, height) })),
    fc
      .tuple(fc.integer({ min: 1, max: 65_535 }), fc.integer({ min: 1, max: 65_535 }), fc.integer({ min: 1, max: 100 }))
      .map(([width, height, frames]) => ({ contentType: 'image/gif', bytes: gifDeclaring(width, height, frames) })),
    fc
      .tuple(fc.integer({ min: 1, max: 2 ** 31 - 1 }), fc.integer({ min: 1, max: 2 ** 31 - 1 }))
      .map(([width, height]) => ({ contentType: 'image/png', bytes: pngDeclaring(width, height) })),
  )
  .map(({ contentType, bytes }) => ({ filename: 'r.img', contentType, dataBase64: bytes.toString('base64') }));

const jsonValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 4, arbitrary: nastyString },
  { weight: 1, arbitrary: fc.integer() },
  { weight: 1, arbitrary: fc.double() },
  { weight: 1, arbitrary: fc.boolean() },
  { weight: 1, arbitrary: fc.constant(null) },
  { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
  { weight: 1, arbitrary: declaredImage },
  {
    weight: 1,
    arbitrary: fc.record(
      {
        filename: nastyString,
        contentType: fc.constantFrom('application/pdf', 'image/png', 'text/html', ''),
        dataBase64: fc.oneof(fc.base64String(), nastyString, fc.constant('JVBERi0xLjcK')),
        channel: fc.constantFrom('slack', 'web', 'x'),
        threadId: nastyString,
      },
      { requiredKeys: [] },
    ),
  },
);

function bodyOf(operation: Operation): fc.Arbitrary<{ body?: Buffer; contentType?: string }> {
  const json = (value: unknown) => ({ body: Buffer.from(JSON.stringify(value)), contentType: 'application/json' });
  const fields = [...operation.bodyFields, 'unknownField', '__proto__', 'constructor'];
  const objectOfFields = fc
    .array(fc.tuple(fc.constantFrom(...fields), jsonValue), { maxLength: 8 })
    .map((entries) => `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${JSON.stringify(v) ?? 'null'}`).join(',')}}`)
    .map((text) => ({ body: Buffer.from(text), contentType: 'application/json' }));
  const oneFieldWrong =
    operation.path === '/v1/proposals' && operation.method === 'POST'
      ? fc
          .tuple(fc.constantFrom(...Object.keys(proposalBody()), 'receipt', 'resubmissionOf', 'extra'), jsonValue)
          .map(([field, value]) => json({ ...proposalBody(), [field]: value }))
      : objectOfFields;
  // A submission valid but for what the outside reviews broke the service with: an ill-formed
  // string anywhere in it, a date no purchase has, a receipt that is a pixel bomb.
  const hostileSubmission =
    operation.path === '/v1/proposals' && operation.method === 'POST'
      ? fc.oneof(
          fc
            .tuple(
              fc.constantFrom('merchant', 'description', 'accountCode', 'currency', 'amount'),
              fc.constantFrom(...ILL_FORMED),
            )
            .map(([field, value]) => json({ ...proposalBody(), [field]: value })),
          fc
            .tuple(fc.constantFrom('filename', 'contentType', 'dataBase64'), fc.constantFrom(...ILL_FORMED))
            .map(([field, value]) =>
              json(proposalBody({ receipt: { ...(proposalBody().receipt as object), [field]: value } })),
            ),
          fc
            .constantFrom(...ILL_FORMED)
            .map((value) => json(proposalBody({ thread: { channel: 'slack', threadId: value } }))),
          fc.constantFrom(...FAR_DATES).map((date) => json(proposalBody({ date }))),
          declaredImage.map((receipt) => json(proposalBody({ receipt }))),
        )
      : objectOfFields;
  return fc.oneof(
    { weight: 2, arbitrary: fc.constant<{ body?: Buffer; contentType?: string }>({}) },
    { weight: 3, arbitrary: hostileSubmission },
    { weight: 4, arbitrary: objectOfFields },
    { weight: 4, arbitrary: oneFieldWrong },
    { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 4 }).map(json) },
    {
      weight: 1,
      arbitrary: fc.integer({ min: 1, max: 20_000 }).map((depth) => ({
        body: Buffer.from('['.repeat(depth) + ']'.repeat(depth)),
        contentType: 'application/json',
      })),
    },
    {
      weight: 1,
      arbitrary: fc
        .string({ maxLength: 60 })
        .map((text) => ({ body: Buffer.from(text), contentType: 'application/json' })),
    },
    {
      weight: 1,
      arbitrary: fc.constantFrom(
        { body: Buffer.from([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x3a, 0x31, 0x7d]), contentType: 'application/json' },
        { body: Buffer.from('{"a":1}'), contentType: 'application/json; charset=utf-16' },
        { body: Buffer.from('{"a":1}'), contentType: 'application/json; charset=bogus' },
        { body: Buffer.from('a=1&b=2'), contentType: 'application/x-www-form-urlencoded' },
        { body: Buffer.from('<a/>'), contentType: 'text/xml' },
        { body: Buffer.from(JSON.stringify({ merchant: 'x'.repeat(80_000) })), contentType: 'application/json' },
        { body: Buffer.from('{"a":1,"a":2}'), contentType: 'application/json' },
        { body: Buffer.from('"just a string"'), contentType: 'application/json' },
      ),
    },
  );
}

const headerValue = fc.oneof(
  fc.constantFrom('', 'x', '-1', '%00', 'a'.repeat(300), '../', 'null'),
  fc.string({ maxLength: 30 }).filter((s) => /^[\x21-\x7e]*$/.test(s)),
);

const extraHeaders = fc.record(
  {
    'content-encoding': fc.constantFrom('gzip', 'br', 'deflate', 'identity', 'x-bogus'),
    'idempotency-key': headerValue,
    'x-request-id': headerValue,
    accept: fc.constantFrom('application/xml', '*/*', 'text/html'),
  },
  { requiredKeys: [] },
);

function caseOf(operations: Operation[]): fc.Arbitrary<Case> {
  return fc
    .constantFrom(...operations)
    .chain((operation) =>
      fc.record({
        operation: fc.constant(operation),
        who: fc.constantFrom<Who>('none', 'garbage', 'employee', 'manager', 'accountant', 'admin'),
        pathValues: fc.tuple(...operation.pathParams.map(() => urlValue)),
        // Within Node's 16 KiB of headers (a longer request line is refused by Node's parser with a bare 431).
        query: fc.array(
          fc.tuple(
            fc.oneof(
              {
                weight: 3,
                arbitrary: operation.queryParams.length ? fc.constantFrom(...operation.queryParams) : urlValue,
              },
              { weight: 1, arbitrary: fc.constantFrom('x', '__proto__', 'limit[]', 'constructor', 'limit') },
            ),
            urlValue,
          ),
          { maxLength: 4 },
        ),
        body: operation.method === 'GET' ? fc.constant<{ body?: Buffer; contentType?: string }>({}) : bodyOf(operation),
        extra: extraHeaders,
      }),
    )
    .map(({ operation, who, pathValues, query, body, extra }) => {
      let index = 0;
      const path = operation.path.replace(/\{[^}]+\}/g, () => pathValues[index++] ?? 'x');
      const headers: Record<string, string> = { ...extra };
      if (body.contentType) headers['content-type'] = body.contentType;
      else delete headers['content-encoding'];
      return {
        operation,
        who,
        path,
        query: query.map(([k, v]) => `${k}=${v}`).join('&'),
        headers,
        body: body.body,
      };
    });
}

describe('fuzzing every operation of /openapi.json', () => {
  let t: TestApp;
  let client: Pool;
  let operations: Operation[];
  let sent = 0;

  beforeAll(async () => {
    t = await startTestApp({ env: { RATE_LIMIT_PER_MINUTE: '10000000' } });
    const port = await listen(t.app.getHttpServer() as Server);
    client = new Pool(`http://127.0.0.1:${port}`, { pipelining: 1, connections: BATCH });
    operations = operationsOf((await t.http.get('/openapi.json')).body as OpenApi);
  });
  afterAll(async () => {
    await client?.close();
    await t?.close();
  });

  const tokens = (): Record<Who, string | undefined> => ({
    none: undefined,
    garbage: 'eyJhbGciOiJub25lIn0.e30.',
    employee: t.token(PEOPLE.employee),
    manager: t.token(PEOPLE.manager),
    accountant: t.token(PEOPLE.accountant),
    admin: t.token(PEOPLE.admin),
  });

  it('answers every hostile submission of the outside reviews without a 5xx, as the employee who sends it', async () => {
    const token = t.token(PEOPLE.employee);
    const receipt = proposalBody().receipt as object;
    const hostile = [
      ...ILL_FORMED.flatMap((value) => [
        ...['merchant', 'description', 'accountCode', 'currency', 'amount', 'date'].map((field) =>
          proposalBody({ [field]: value }),
        ),
        proposalBody({ receipt: { ...receipt, filename: value } }),
        proposalBody({ thread: { channel: 'slack', threadId: value } }),
      ]),
      ...FAR_DATES.map((date) => proposalBody({ date })),
      ...HUGE_IMAGES.map((image) =>
        proposalBody({
          receipt: { filename: 'r.img', contentType: image.contentType, dataBase64: image.bytes.toString('base64') },
        }),
      ),
    ];
    const answers: string[] = [];
    for (const body of hostile) {
      const response = await client.request({
        method: 'POST',
        path: '/v1/proposals',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      const text = await response.body.text();
      if (response.statusCode >= 500) {
        const { receipt: sent, ...rest } = body as { receipt: { dataBase64: string } };
        answers.push(
          `${response.statusCode} for ${JSON.stringify({ ...rest, receipt: { ...sent, dataBase64: sent.dataBase64.slice(0, 40) } })}: ${text.slice(0, 120)}`,
        );
      }
    }
    expect(answers).toEqual([]);
  });

  it(`answers ${RUNS} malformed requests without a 5xx, each error a problem+json with a contract code`, async () => {
    expect(operations.length).toBeGreaterThan(20);
    const bearer = tokens();
    const check = async (c: Case): Promise<void> => {
      const token = bearer[c.who];
      const response = await client.request({
        method: c.operation.method as 'GET',
        path: c.query ? `${c.path}?${c.query}` : c.path,
        headers: { ...c.headers, ...(token ? { authorization: `Bearer ${token}` } : {}) },
        body: c.body,
      });
      const text = await response.body.text();
      sent++;
      const url = `${c.path}?${c.query}`;
      const where = `${c.operation.method} ${url.slice(0, 300)} as ${c.who}: ${response.statusCode} ${text.slice(0, 300)}`;
      if (response.statusCode >= 500) throw new Error(`5xx: ${where}`);
      if (response.statusCode < 400) return;
      const type = String(response.headers['content-type'] ?? '');
      // The OAuth pages answer a browser in HTML, errors included.
      if (type.startsWith('text/html') && c.path.startsWith('/v1/oauth/')) return;
      if (!type.startsWith('application/problem+json')) throw new Error(`not problem+json: ${where}`);
      const problem = JSON.parse(text) as { code: keyof typeof ERROR_STATUS; status: number };
      if (ERROR_STATUS[problem.code]?.status !== response.statusCode || problem.status !== response.statusCode) {
        throw new Error(`code and status disagree: ${where}`);
      }
    };
    // A few requests at once: the service meets concurrent callers, and the run stays short.
    await fc.assert(
      fc.asyncProperty(fc.array(caseOf(operations), { minLength: BATCH, maxLength: BATCH }), async (cases) => {
        await Promise.all(cases.map(check));
      }),
      { numRuns: Math.ceil(RUNS / BATCH), endOnFailure: true },
    );
    expect(sent).toBeGreaterThanOrEqual(RUNS);
  }, 600_000);
});
