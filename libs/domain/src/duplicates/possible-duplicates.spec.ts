import fc from 'fast-check';
import type { ConfidenceAssessment } from '../confidence/confidence-engine';
import type { Proposal } from '../proposal/proposal';
import { withExpenseDefaults } from '../proposal/expense-details';
import {
  duplicateAmountRange,
  duplicateDateWindow,
  duplicateLookbackStart,
  findPossibleDuplicates,
  holdPossibleDuplicates,
  POSSIBLE_DUPLICATE_MAX_SCORE,
  type DuplicateProbe,
  type EarlierBooking,
  normalizeInvoiceNumber,
  withSupplierInvoiceTwins,
} from './possible-duplicates';

const SHA = 'a'.repeat(64);

function earlier(overrides: Partial<Proposal> = {}): Proposal {
  return withExpenseDefaults({
    id: 'p-1',
    companyId: 'acme',
    correlationId: 'p-1',
    version: 1,
    kind: 'expense',
    merchant: 'Spotify AB',
    merchantKey: 'spotify',
    amount: 11900,
    currency: 'NOK',
    amountNok: null,
    date: '2026-10-20',
    accountCode: '6540',
    vatRate: '25',
    description: null,
    receipt: { filename: 'r.pdf', contentType: 'application/pdf', sizeBytes: 10, sha256: SHA },
    thread: null,
    submittedBy: 'ola@acme.no',
    channel: 'slack',
    submittedAt: new Date('2026-10-20T10:00:00Z'),
    updatedAt: new Date('2026-10-20T10:00:00Z'),
    status: 'EXECUTED',
    confidence: 0.95,
    route: 'auto_approve',
    reasons: [],
    executeAfter: null,
    resubmissionOf: null,
    autoApproved: true,
    approvedBy: null,
    corrections: null,
    rejectedBy: null,
    rejectionReason: null,
    booking: { provider: 'tripletex', bookingId: '7001' },
    lastExecutionError: null,
    receiptFingerprint: null,
    ...overrides,
  });
}

const probe = (overrides: Partial<DuplicateProbe> = {}): DuplicateProbe => ({
  merchant: 'Spotify AB',
  amount: 11900,
  currency: 'NOK',
  amountNok: null,
  date: '2026-10-20',
  receiptSha256: null,
  receiptFingerprint: null,
  ...overrides,
});

const booking = (overrides: Partial<EarlierBooking> = {}): EarlierBooking => ({
  provider: 'tripletex',
  bookingId: '5512',
  kind: 'voucher',
  merchant: 'SPOTIFY AB *P2B9C1X',
  amount: 11900,
  date: '2026-10-21',
  ...overrides,
});

describe('findPossibleDuplicates', () => {
  it('finds the same receipt whatever the amount and date, naming the proposal and its booking', () => {
    const [match] = findPossibleDuplicates(
      probe({ receiptSha256: SHA, amount: 1, date: '2026-01-01', merchant: 'Other' }),
      [earlier()],
    );

    expect(match).toEqual({
      source: 'proposal',
      id: 'p-1',
      ground: 'same_receipt',
      reason:
        'possible duplicate of proposal p-1 (Spotify AB, NOK 119.00, 2026-10-20, EXECUTED, booked as tripletex 7001): the same receipt (identical file)',
    });
  });

  it.each([
    ['the same day', '2026-10-20'],
    ['a day later', '2026-10-21'],
    ['a day earlier', '2026-10-19'],
    ['two days later', '2026-10-22'],
    ['three days earlier', '2026-10-17'],
  ])('finds the same merchant and amount %s', (_label, date) => {
    expect(findPossibleDuplicates(probe({ date, merchant: 'SPOTIFY AB *X9Y8' }), [earlier({ receipt: null })])).toEqual(
      [expect.objectContaining({ id: 'p-1', ground: 'same_purchase' })],
    );
  });

  it.each([
    ['0.01 more', { amount: 11901 }],
    ['0.5 % less', { amount: 11841 }],
    ['in EUR with the same amountNok', { currency: 'EUR', amount: 1020, amountNok: 11900 }],
    ['in EUR with amountNok 0.01 off', { currency: 'EUR', amount: 1020, amountNok: 11899 }],
  ])('finds the same purchase %s', (_label, overrides) => {
    expect(findPossibleDuplicates(probe(overrides), [earlier({ receipt: null })])).toEqual([
      expect.objectContaining({ id: 'p-1', ground: 'same_purchase' }),
    ]);
  });

  it('finds a NOK purchase that repeats an earlier one sent in EUR, naming its NOK amount', () => {
    const [match] = findPossibleDuplicates(probe({ date: '2026-10-22' }), [
      earlier({ receipt: null, currency: 'EUR', amount: 1020, amountNok: 11900, booking: null, status: 'APPROVED' }),
    ]);

    expect(match.reason).toBe(
      'possible duplicate of proposal p-1 (Spotify AB, EUR 10.20 (NOK 119.00), 2026-10-20, APPROVED): the same merchant, NOK amount within 0.5 % and a date within 3 days',
    );
  });

  it.each([
    ['four days apart', { date: '2026-10-24' }],
    ['another amount (1 % more)', { amount: 12019 }],
    ['another currency whose NOK amount differs', { currency: 'SEK', amountNok: 11300 }],
    ['another merchant (Uber Eats is not Uber)', { merchant: 'Uber Eats' }],
  ])('does not flag %s', (_label, overrides) => {
    const uber = earlier({ merchant: 'Uber', receipt: null });
    const spotify = earlier({ id: 'p-2', receipt: null });
    expect(findPossibleDuplicates(probe(overrides), ['merchant' in overrides ? uber : spotify])).toEqual([]);
  });

  describe('the same receipt in other bytes (its fingerprint)', () => {
    const image = 'phash:00ff00ff00ff00ff';
    const other = { amount: 1, date: '2026-01-01', merchant: 'Other', receiptSha256: 'b'.repeat(64) };

    it.each([
      ['the same image', image, '2026-10-20'],
      ['an image within 4 bits (re-encoded)', 'phash:00ff00ff00ff00f0', '2026-10-23'],
    ])('finds %s dated within three days, whatever the amount and merchant', (_label, fingerprint, date) => {
      expect(
        findPossibleDuplicates(probe({ ...other, date, receiptFingerprint: fingerprint }), [
          earlier({ receiptFingerprint: image }),
        ]),
      ).toEqual([
        {
          source: 'proposal',
          id: 'p-1',
          ground: 'same_receipt_content',
          reason:
            'possible duplicate of proposal p-1 (Spotify AB, NOK 119.00, 2026-10-20, EXECUTED, booked as tripletex 7001): the same receipt (the same image or PDF content in another file)',
        },
      ]);
    });

    it('does not take the same picture a month later for the same receipt (a subscription’s, printed from one template)', () => {
      expect(
        findPossibleDuplicates(probe({ date: '2026-11-20', receiptFingerprint: image }), [
          earlier({ receiptFingerprint: image, receipt: null }),
        ]),
      ).toEqual([]);
    });

    it('finds a PDF of the same content whatever the amount, date and merchant', () => {
      const pdf = `pdf:${'c'.repeat(64)}`;
      expect(
        findPossibleDuplicates(probe({ ...other, receiptFingerprint: pdf }), [earlier({ receiptFingerprint: pdf })]),
      ).toEqual([expect.objectContaining({ ground: 'same_receipt_content' })]);
    });

    it.each([
      ['an image 5 bits away', 'phash:00ff00ff00ff00e0'],
      ['a PDF of other content', `pdf:${'d'.repeat(64)}`],
      ['no fingerprint', null],
    ])('does not flag %s', (_label, fingerprint) => {
      expect(
        findPossibleDuplicates(probe({ ...other, receiptFingerprint: fingerprint }), [
          earlier({ receiptFingerprint: image }),
          earlier({ id: 'p-2', receiptFingerprint: `pdf:${'c'.repeat(64)}` }),
        ]),
      ).toEqual([]);
    });
  });

  it('ignores a rejected proposal', () => {
    expect(findPossibleDuplicates(probe({ receiptSha256: SHA }), [earlier({ status: 'REJECTED' })])).toEqual([]);
  });

  it('finds a booking already in the books by merchant, amount and date, and names it', () => {
    const [match] = findPossibleDuplicates(probe(), [], [booking()]);

    expect(match).toEqual({
      source: 'booking',
      id: '5512',
      ground: 'same_purchase',
      reason:
        'possible duplicate of tripletex voucher 5512 already in the books (SPOTIFY AB *P2B9C1X, NOK 119.00, 2026-10-21): same merchant, NOK amount within 0.5 % and a date within 3 days',
    });
    expect(findPossibleDuplicates(probe({ currency: 'EUR', amount: 1020, amountNok: 11900 }), [], [booking()])).toEqual(
      [expect.objectContaining({ id: '5512' })],
    );
    expect(
      findPossibleDuplicates(probe({ currency: 'EUR', amount: 11900, amountNok: 139000 }), [], [booking()]),
    ).toEqual([]);
  });

  it('lists the same receipt first, then by id', () => {
    const matches = findPossibleDuplicates(probe({ receiptSha256: SHA }), [
      earlier({ id: 'p-0', receipt: null }),
      earlier({ id: 'p-9' }),
    ]);
    expect(matches.map((m) => m.id)).toEqual(['p-9', 'p-0']);
  });

  it('never flags a monthly subscription: same merchant and amount, a month apart, another receipt', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 1_000_000 }),
        fc.date({ min: new Date('2025-01-01T00:00:00Z'), max: new Date('2027-12-01T00:00:00Z'), noInvalidDate: true }),
        fc.integer({ min: 1, max: 11 }),
        (amount, start, months) => {
          const first = start.toISOString().slice(0, 10);
          const later = new Date(start.getTime());
          later.setUTCMonth(later.getUTCMonth() + months);
          const previous = earlier({ amount, date: first, receipt: null });
          return (
            findPossibleDuplicates(probe({ amount, date: later.toISOString().slice(0, 10), receiptSha256: SHA }), [
              previous,
            ]).length === 0
          );
        },
      ),
    );
  });
});

describe('holdPossibleDuplicates', () => {
  const assessment: ConfidenceAssessment = {
    score: 0.96,
    route: 'auto_approve',
    reasons: ['exact merchant match: spotify'],
    merchantKey: 'spotify',
    patternId: 'pattern-1',
  };

  it('caps a possible duplicate in the review-required band and adds the reason', () => {
    const [match] = findPossibleDuplicates(probe({ receiptSha256: SHA }), [earlier()]);
    const held = holdPossibleDuplicates(assessment, [match]);

    expect(held).toMatchObject({
      score: POSSIBLE_DUPLICATE_MAX_SCORE,
      route: 'review_required',
      patternId: 'pattern-1',
    });
    expect(held.reasons).toEqual([...assessment.reasons, `${match.reason}: never auto-approved`]);
  });

  it('keeps an assessment without matches, and a lower score as it is', () => {
    expect(holdPossibleDuplicates(assessment, [])).toBe(assessment);
    const low = { ...assessment, score: 0.2, route: 'review_required' as const };
    expect(
      holdPossibleDuplicates(low, [{ source: 'booking', id: 'x', ground: 'same_purchase', reason: 'r' }]).score,
    ).toBe(0.2);
  });
});

describe('withSupplierInvoiceTwins', () => {
  const supplier = { name: 'Kontorrekvisita AS', organizationNumber: '923609016', bankAccount: null, kid: null };
  const invoice = { kind: 'supplier_invoice', paidWith: null, supplier, invoiceNumber: 'F-1001' } as const;
  const first = earlier({ ...invoice, id: 'p-first', amount: 1_000_000, date: '2026-09-01' });

  it('names an earlier proposal of the same supplier and invoice number, whatever its amount and date, once', () => {
    const purchase = { source: 'proposal', id: 'p-first', ground: 'same_purchase', reason: 'same purchase' } as const;
    const booking = { source: 'booking', id: 'v-1', ground: 'same_purchase', reason: 'booked' } as const;

    const matches = withSupplierInvoiceTwins(invoice, [first], [purchase, booking]);

    expect(matches).toEqual([
      {
        source: 'proposal',
        id: 'p-first',
        ground: 'same_supplier_invoice',
        reason: expect.stringMatching(/^possible duplicate of proposal p-first .*the same supplier invoice/),
      },
      booking,
    ]);
  });

  it('tells invoice numbers apart as normalizeInvoiceNumber does: white space and ASCII case do not count', () => {
    expect(normalizeInvoiceNumber(' f-10 01\t\n')).toBe('F-1001');
    expect(normalizeInvoiceNumber('ø-1')).toBe('ø-1');
    expect(withSupplierInvoiceTwins({ ...invoice, invoiceNumber: 'f-10 01' }, [first], [])).toHaveLength(1);
    expect(withSupplierInvoiceTwins({ ...invoice, invoiceNumber: 'F-1001-2' }, [first], [])).toEqual([]);
  });

  it('finds none for another invoice number, supplier, a rejected one, itself, or an expense', () => {
    const other = { ...supplier, organizationNumber: '974760673' };
    const none = [
      earlier({ ...invoice, id: 'a', invoiceNumber: 'F-1002' }),
      earlier({ ...invoice, id: 'b', supplier: other }),
      earlier({ ...invoice, id: 'c', status: 'REJECTED' }),
    ];
    expect(withSupplierInvoiceTwins(invoice, none, [])).toEqual([]);
    expect(withSupplierInvoiceTwins({ ...invoice, id: 'p-first' }, [first], [])).toEqual([]);
    expect(withSupplierInvoiceTwins({ kind: 'expense', supplier: null, invoiceNumber: null }, [first], [])).toEqual([]);
  });
});

describe('duplicate windows', () => {
  it('spans three days each side, across a month end', () => {
    expect(duplicateDateWindow('2026-03-01')).toEqual({ from: '2026-02-26', to: '2026-03-04' });
  });

  it('never leaves the four-digit years, whatever the date', () => {
    expect(duplicateDateWindow('9999-12-31')).toEqual({ from: '9999-12-28', to: '9999-12-31' });
    expect(duplicateDateWindow('9999-12-30')).toEqual({ from: '9999-12-27', to: '9999-12-31' });
    fc.assert(
      fc.property(
        fc.date({ min: new Date('1900-01-01T00:00:00Z'), max: new Date('9999-12-31T00:00:00Z'), noInvalidDate: true }),
        (day) => {
          const { from, to } = duplicateDateWindow(day.toISOString().slice(0, 10));
          return /^\d{4}-\d{2}-\d{2}$/.test(from) && /^\d{4}-\d{2}-\d{2}$/.test(to) && from <= to;
        },
      ),
    );
  });

  it('takes NOK amounts within 0.5 %, at least 5 øre each way', () => {
    expect(duplicateAmountRange(11900)).toEqual({ min: 11841, max: 11959 });
    expect(duplicateAmountRange(100)).toEqual({ min: 95, max: 105 });
  });

  it('looks 12 months back', () => {
    expect(duplicateLookbackStart(new Date('2026-11-20T10:00:00Z')).toISOString()).toBe('2025-11-20T10:00:00.000Z');
  });
});
