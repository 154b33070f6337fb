import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import type { ExchangeBody, SandboxExchange } from '@app/sandbox';
import { DEFINITION_FILES, DEFINITION_SHA256, DEFINITIONS_DIR, contractViolations } from './index';

function exchange(overrides: Partial<SandboxExchange> & { url?: string }): SandboxExchange {
  const [pathPart, search = ''] = (overrides.url ?? '/').split('?');
  return {
    provider: 'fiken',
    surface: 'api',
    method: 'GET',
    path: pathPart,
    query: new URLSearchParams(search),
    requestHeaders: { authorization: 'Bearer t' },
    requestBody: { kind: 'none' },
    status: 200,
    responseHeaders: {},
    responseBody: undefined,
    ...overrides,
  };
}

const json = (value: unknown): ExchangeBody => ({ kind: 'json', value });
const SLUG = '/companies/demo';
const PAGE_HEADERS = {
  'fiken-api-page': '0',
  'fiken-api-page-size': '25',
  'fiken-api-page-count': '1',
  'fiken-api-result-count': '0',
};
const purchase = (line: Record<string, unknown> = {}, extra: Record<string, unknown> = {}) => ({
  date: '2026-03-10',
  kind: 'cash_purchase',
  paid: true,
  currency: 'NOK',
  paymentAccount: '1920:10001',
  lines: [{ description: 'Kontorstol', netPrice: 100, vat: 25, account: '6540', vatType: 'HIGH', ...line }],
  ...extra,
});

describe('the vendored provider definitions', () => {
  it.each(['tripletex', 'fiken'] as const)('%s is the published file, byte for byte (sha256)', (provider) => {
    const bytes = readFileSync(path.join(DEFINITIONS_DIR, DEFINITION_FILES[provider]));
    expect(createHash('sha256').update(bytes).digest('hex')).toBe(DEFINITION_SHA256[provider]);
    const readme = readFileSync(path.join(DEFINITIONS_DIR, 'README.md'), 'utf8');
    expect(readme).toContain(DEFINITION_SHA256[provider]);
  });
});

describe('the provider contract check', () => {
  it('accepts a request and an answer that conform', () => {
    expect(
      contractViolations(
        exchange({
          url: `${SLUG}/purchases?date=2026-03-10&page=0&pageSize=100&sortBy=date%20desc`,
          responseHeaders: PAGE_HEADERS,
          responseBody: [],
        }),
      ),
    ).toEqual([]);
  });

  it.each([
    [`${SLUG}/purchases?sortBy=createdDate%20desc`, /sortBy=createdDate desc is not one of "date asc", "date desc"/],
    [`${SLUG}/purchases?identifier=x`, /query parameter identifier is not declared/],
    [`${SLUG}/purchases?pageSize=500`, /pageSize=500 is above the maximum 100/],
    [`${SLUG}/purchases?dateGe=10.03.2026`, /dateGe=10.03.2026 is not a date/],
    [`${SLUG}/accountBalances`, /required query parameter date is missing/],
    [`${SLUG}/nothing`, /no operation GET \/companies\/demo\/nothing/],
  ])('refuses GET %s', (url, message) => {
    const problems = contractViolations(exchange({ url, responseHeaders: PAGE_HEADERS, responseBody: [] }));
    expect(problems.join('\n')).toMatch(message);
  });

  it.each([
    [
      'a line description over 200 characters',
      purchase({ description: 'x'.repeat(201) }),
      /description must NOT have more than 200 characters/,
    ],
    ['a purchase without paid', { ...purchase(), paid: undefined }, /must have required property 'paid'/],
    ['a read-only field', purchase({}, { transactionId: 1 }), /transactionId must not be present \(readOnly\)/],
    ['a currency that is not ISO 4217', purchase({}, { currency: 'nok' }), /currency must match pattern/],
  ])('refuses a purchase with %s', (_name, body, message) => {
    const problems = contractViolations(
      exchange({
        method: 'POST',
        url: `${SLUG}/purchases`,
        requestHeaders: { authorization: 'Bearer t', 'content-type': 'application/json' },
        requestBody: json(body),
        status: 201,
        responseHeaders: { location: 'https://x/purchases/1' },
      }),
    );
    expect(problems.join('\n')).toMatch(message);
  });

  it('refuses an undeclared multipart field and a write-only field in an answer', () => {
    const upload = contractViolations(
      exchange({
        method: 'POST',
        url: `${SLUG}/purchases/1/attachments?attachToSale=true`,
        requestHeaders: { authorization: 'Bearer t', 'content-type': 'multipart/form-data; boundary=x' },
        requestBody: { kind: 'multipart', fields: { filename: 'r.pdf', comment: 'x' }, files: [] },
        status: 201,
        responseHeaders: { location: 'https://x/a' },
      }),
    );
    expect(upload.join('\n')).toMatch(/multipart field comment is not declared/);
    const answer = contractViolations(
      exchange({
        url: `${SLUG}/purchases/1`,
        responseBody: { ...purchase(), purchaseId: 1, paymentAccount: '1920:10001' },
      }),
    );
    expect(answer.join('\n')).toMatch(/paymentAccount must not be present \(writeOnly\)/);
  });

  it('checks Tripletex error envelopes and credentials', () => {
    const refusal = contractViolations(
      exchange({
        provider: 'tripletex',
        url: '/ledger/voucher?dateFrom=2026-01-01&dateTo=2026-02-01',
        requestHeaders: { authorization: 'Bearer t' },
        status: 422,
        responseBody: { status: 400, code: 'x' },
      }),
    ).join('\n');
    expect(refusal).toMatch(/no Basic <company id or 0>:<session token> credentials/);
    expect(refusal).toMatch(/\/code must be integer/);
    expect(refusal).toMatch(/error envelope says status 400 on a 422/);
  });

  it("checks Fiken's OAuth code exchange as its documentation describes it", () => {
    const problems = contractViolations(
      exchange({
        surface: 'oauth',
        method: 'POST',
        url: '/token',
        requestHeaders: { authorization: 'Basic YTpi', 'content-type': 'application/x-www-form-urlencoded' },
        requestBody: { kind: 'form', fields: { grant_type: 'authorization_code', code: 'c', redirect_uri: 'r' } },
        responseBody: { access_token: 'a', refresh_token: 'r', token_type: 'bearer', expires_in: 3600 },
      }),
    );
    expect(problems).toEqual(['fiken OAuth POST /token: state is required for authorization_code']);
  });
});
