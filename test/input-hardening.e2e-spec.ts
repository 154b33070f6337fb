import { receiptPdf } from '@app/testing';
import { startTestApp, type TestApp } from './support/test-app';
import { PDF, PEOPLE, proposalBody } from './support/proposals';

const MiB = 1024 * 1024;

/** A PDF of exactly `size` bytes: the test PDF with its content stream padded. */
const pdfOfSize = (size: number): Buffer => receiptPdf({ size });

describe('receipts up to the contract’s 7 MiB', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp({ env: { RATE_LIMIT_PER_MINUTE: '10000' } });
  });
  afterAll(async () => t.close());

  const submit = (bytes: Buffer) =>
    t.http
      .post('/v1/proposals')
      .set('Authorization', `Bearer ${t.token(PEOPLE.employee)}`)
      .send(
        proposalBody({
          receipt: { filename: 'r.pdf', contentType: 'application/pdf', dataBase64: bytes.toString('base64') },
        }),
      );

  it('accepts a receipt of 3.5 MiB', async () => {
    const res = await submit(pdfOfSize(3.5 * MiB));
    expect(res.status).toBe(201);
    expect(res.body.receipt.sizeBytes).toBe(3.5 * MiB);
  });

  it('accepts a receipt of exactly 7 MiB', async () => {
    const res = await submit(pdfOfSize(7 * MiB));
    expect(res.status).toBe(201);
    expect(res.body.receipt.sizeBytes).toBe(7 * MiB);
  });

  it('refuses a receipt of 7 MiB and one byte with 400 validation_failed on receipt', async () => {
    const res = await submit(pdfOfSize(7 * MiB + 1));
    expect(res.status).toBe(400);
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(res.body.code).toBe('validation_failed');
    expect(res.body.errors).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ field: 'receipt', message: expect.stringMatching(/at most/) }),
      ]),
    );
  });
});

describe('control characters in bodies, paths and queries', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp({ env: { RATE_LIMIT_PER_MINUTE: '10000' } });
  });
  afterAll(async () => t.close());

  const auth = () => ({ Authorization: `Bearer ${t.token(PEOPLE.accountant)}` });

  it('refuses NUL and other control characters in any string field of a body with 400 validation_failed', async () => {
    for (const overrides of [
      { merchant: 'Kiwi\u0000' },
      { description: 'lunch\u0007' },
      { thread: { channel: 'slack', threadId: 'C01\u0000' } },
      { receipt: { filename: 'r\u0000.pdf', contentType: 'application/pdf', dataBase64: PDF.toString('base64') } },
    ]) {
      const res = await t.http.post('/v1/proposals').set(auth()).send(proposalBody(overrides));
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('validation_failed');
      expect(res.body.detail).toMatch(/control character/);
    }
    // Tabs and line breaks are text.
    const ok = await t.http
      .post('/v1/proposals')
      .set(auth())
      .send(proposalBody({ description: 'line one\nline two\ttabbed' }));
    expect(ok.status).toBe(201);
  });

  it('refuses a lone UTF-16 surrogate in any string of a body with 400 validation_failed naming the field', async () => {
    const proposal = await t.http.post('/v1/proposals').set(auth()).send(proposalBody());
    expect(proposal.status).toBe(201);
    for (const [path, body, field] of [
      ['/v1/proposals', proposalBody({ merchant: 'Kiwi \ud800' }), 'merchant'],
      ['/v1/proposals', proposalBody({ thread: { channel: 'slack', threadId: 'C01\udfff' } }), 'thread.threadId'],
      ['/v1/patterns', { merchantName: '\ud800', accountCode: '6540', vatRate: '25' }, 'merchantName'],
      [`/v1/review/${proposal.body.id}/reject`, { reason: 'wrong \udc00 amount' }, 'reason'],
      [`/v1/review/${proposal.body.id}/reject`, { reason: 'no receipt', ['key\ud800']: 'x' }, 'key\ufffd'],
    ] as const) {
      const res = await t.http.post(path).set(auth()).send(body);
      expect({ path, status: res.status, code: res.body.code }).toEqual({
        path,
        status: 400,
        code: 'validation_failed',
      });
      expect(res.body.errors).toEqual([expect.objectContaining({ field })]);
      expect(res.body.detail).toContain('well-formed');
    }
    // A surrogate pair is one character, and text.
    const emoji = await t.http
      .post(`/v1/review/${proposal.body.id}/reject`)
      .set(auth())
      .send({ reason: 'not a business expense \ud83d\ude00' });
    expect(emoji.status).toBe(200);
  });

  it('refuses NUL in a path segment or a query value with 400 validation_failed', async () => {
    for (const url of [
      '/v1/proposals/abc%00def',
      '/v1/patterns/%00',
      '/v1/events?correlationId=a%00b',
      '/v1/events?correlationId=%1f',
      '/v1/proposals/%E0%A4%A',
    ]) {
      const res = await t.http.get(url).set(auth());
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('validation_failed');
    }
  });
});
