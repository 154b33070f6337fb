import { receiptImage } from '@app/testing';
import { startTestApp, type TestApp } from './support/test-app';
import { api, PDF, proposalBody, repeatBody } from './support/proposals';

/**
 * A near-duplicate (docs/trust.md "Duplicates"): the same purchase sent again in a form that is not
 * byte for byte the first is held for a reviewer with the earlier proposal named, never refused.
 */
describe('near-duplicates end to end', () => {
  let t: TestApp;
  let as: ReturnType<typeof api>;

  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => t.close());

  beforeEach(async () => {
    as = api(t, await t.newCompany('dups'));
    await as.post('/v1/patterns', 'accountant', { merchantName: 'Spotify AB', accountCode: '6540', vatRate: '25' });
  });

  const receipt = (bytes: Buffer, contentType: string) => ({
    filename: contentType === 'application/pdf' ? 'r.pdf' : 'r.png',
    contentType,
    dataBase64: bytes.toString('base64'),
  });

  function expectHeldAsDuplicateOf(
    first: { body: { id: string } },
    again: { status: number; body: { reasons: string[] } },
  ): void {
    expect(again.status).toBe(201);
    expect(again.body).toMatchObject({ status: 'PROPOSED', route: 'review_required', autoApproved: false });
    expect(again.body.reasons).toEqual(
      expect.arrayContaining([expect.stringContaining(`possible duplicate of proposal ${first.body.id}`)]),
    );
  }

  it.each([
    ['a photo', 'image/png'],
    ['a PDF', 'application/pdf'],
  ])('holds %s receipt sent again with two bytes appended and the amount 0.01 higher', async (_label, contentType) => {
    const bytes = contentType === 'image/png' ? await receiptImage({ seed: 42 }) : PDF;
    const first = await as.submit(proposalBody({ receipt: receipt(bytes, contentType) }));
    expect(first.body.status).toBe('APPROVED');

    const again = await as.submit(
      proposalBody({ amount: '119.01', receipt: receipt(Buffer.concat([bytes, Buffer.from('\r\n')]), contentType) }),
    );

    expectHeldAsDuplicateOf(first, again);
    expect(again.body.reasons.join(' ')).toContain('the same receipt (the same image or PDF content in another file)');
  });

  it('holds the same purchase dated two days later, with another receipt', async () => {
    const first = await as.submit();

    expectHeldAsDuplicateOf(first, await as.submit(repeatBody(1, { date: '2026-11-22' })));
  });

  it('holds the same purchase sent in EUR with its NOK amount', async () => {
    const first = await as.submit();

    expectHeldAsDuplicateOf(
      first,
      await as.submit(
        repeatBody(1, {
          date: '2026-11-20',
          currency: 'EUR',
          amount: '10.20',
          amountNok: '119.00',
          vatTreatment: 'foreign_no_deduction',
        }),
      ),
    );
  });

  it('keeps auto-approving a monthly subscription of the same price', async () => {
    await as.submit();

    const lastMonth = await as.submit(repeatBody(1, { date: '2026-10-20' }));

    expect(lastMonth.body).toMatchObject({ status: 'APPROVED', autoApproved: true });
    expect(lastMonth.body.reasons.join(' ')).not.toMatch(/duplicate/);
  });

  it('answers the last date there is without a server error (the duplicate window stays within the dates)', async () => {
    const res = await as.submit(repeatBody(1, { date: '9999-12-31' }));

    expect(res.status).toBeLessThan(500);
  });
});
