import type { SubmissionReadQuery, SubmissionReads } from '@app/application';
import { DEFAULT_CANDIDATE_LIMIT } from '@app/domain';
import type {
  BookingHistoryStore,
  DuplicateCandidateQuery,
  HistoricalBooking,
  Pattern,
  PatternStore,
  Proposal,
  ProposalRepository,
} from '@app/domain';
import { aPattern } from '../mothers/pattern.mother';
import { aProposal } from '../mothers/proposal.mother';
import { companies, type ContractOptions, uniqueId } from './contract-support';

export interface SubmissionReadsUnderTest {
  readonly reads: SubmissionReads;
  /** The stores of the tables it reads, through which the test data is written. */
  readonly patterns: PatternStore;
  readonly proposals: ProposalRepository;
  readonly history: BookingHistoryStore;
}

const T0 = Date.parse('2026-11-20T10:00:00.000Z');
const DAY = 86_400_000;

/**
 * The SubmissionReads contract: each part of the one read is the right records, in the right
 * order, and each record exactly — field by field, type by type — what was stored through the port
 * that owns its table (which reads it back the same: its own contract). A part mapped wrongly (a
 * timestamp left as text, a bigint as a string, a date shifted, a JSON column flattened) fails the
 * deep equality. Its cases are those of the candidate, duplicate and near-booking reads the stores
 * answered before this one read replaced them.
 */
export function describeSubmissionReadsContract(
  name: string,
  factory: () => SubmissionReadsUnderTest | Promise<SubmissionReadsUnderTest>,
  options: ContractOptions = {},
): void {
  describe(`SubmissionReads contract: ${name}`, () => {
    let subject: SubmissionReadsUnderTest;
    let company: string;
    let otherCompany: string;

    beforeEach(async () => {
      subject = await factory();
      [company, otherCompany] = await companies(options, 2);
    });

    afterEach(async () => {
      await options.teardown?.();
    });

    const proposalOf = (companyId: string, overrides: Partial<Proposal> = {}): Proposal => {
      const id = uniqueId();
      return { ...aProposal('PROPOSED', { companyId }), id, correlationId: id, ...overrides };
    };
    const patternOf = (companyId: string, overrides: Parameters<typeof aPattern>[0] = {}): Pattern =>
      aPattern({ id: uniqueId(), companyId, ...overrides });
    const receipt = (sha256: string) => ({ filename: 'r.pdf', contentType: 'application/pdf', sizeBytes: 1, sha256 });
    const supplier = { name: 'Kontorrekvisita AS', organizationNumber: '923609016', bankAccount: null, kid: null };
    const invoice = { kind: 'supplier_invoice', paidWith: null, supplier, invoiceNumber: 'F-1001' } as const;

    /** A Spotify purchase of NOK 119.00 on 2026-11-20, with its receipt, as the reads look for. */
    const query = (overrides: Partial<SubmissionReadQuery> = {}): SubmissionReadQuery => ({
      merchantKey: 'spotify',
      receiptSha256: 'f'.repeat(64),
      receiptFingerprint: `pdf:${'a'.repeat(64)}`,
      amountMin: 11895,
      amountMax: 11905,
      dateFrom: '2026-11-19',
      dateTo: '2026-11-21',
      submittedSince: new Date(T0 - 365 * DAY),
      supplierInvoice: null,
      ...overrides,
    });

    const candidatesOf = async (merchantKey: string) =>
      (await subject.reads.read(company, query({ merchantKey }))).candidates;
    const earlierOf = async (duplicates: DuplicateCandidateQuery) =>
      (await subject.reads.read(company, { ...duplicates, supplierInvoice: null })).earlier;

    async function store(data: {
      patterns?: Pattern[];
      proposals?: Proposal[];
      bookings?: { companyId: string; bookings: HistoricalBooking[] }[];
    }): Promise<void> {
      for (const pattern of data.patterns ?? []) await subject.patterns.save(pattern, null);
      for (const proposal of data.proposals ?? []) await subject.proposals.insert(proposal);
      for (const { companyId, bookings } of data.bookings ?? []) {
        await subject.history.savePage(bookings, {
          companyId,
          provider: 'tripletex',
          periodFrom: '2025-11-20',
          periodTo: '2026-11-20',
          status: 'done',
          cursor: null,
          bookingsRead: bookings.length,
          pagesRead: 1,
          startedBy: 'kari@example.no',
          startedAt: new Date(T0),
          updatedAt: new Date(T0),
          finishedAt: new Date(T0),
          error: null,
        });
      }
    }

    it('reads the merchant’s patterns, its possible duplicates and the provider’s near bookings as they were stored', async () => {
      const spotify = patternOf(company, {
        merchantName: 'Spotify AB',
        amounts: [11900, 11950, 12000],
        writtenBy: 'ola@example.no',
        lastChangedBy: 'ola@example.no',
        updatedAt: new Date(T0 - 123),
      });
      const spotifyOtherAccount = patternOf(company, {
        merchantName: 'SPOTIFY',
        accountCode: '6800',
        verified: false,
        history: { bookings: 3, merchantBookings: 4, firstDate: '2026-01-05', lastDate: '2026-10-05' },
      });
      const retired = patternOf(company, { merchantName: 'Spotify', accountCode: '6300', retiredAt: new Date(T0) });
      const lookAlike = patternOf(company, { merchantName: 'Spotifi' });
      const elsewhere = patternOf(otherCompany, { merchantName: 'Spotify' });

      const base = { merchant: 'Spotify AB', merchantKey: 'spotify', amount: 11900, date: '2026-11-20' };
      const nextDay = proposalOf(company, {
        ...base,
        status: 'EXECUTED',
        version: 3,
        date: '2026-11-21',
        submittedAt: new Date(T0 - 2 * DAY + 7),
        updatedAt: new Date(T0 - DAY + 11),
        executeAfter: new Date(T0 - DAY),
        confidence: 0.95,
        route: 'auto_approve',
        autoApproved: true,
        receipt: receipt('1'.repeat(64)),
        thread: { channel: 'slack', threadId: 'C01/1700000000.000100' },
        booking: { provider: 'tripletex', bookingId: 'voucher-9' },
        paidWith: 'employee',
        reimbursement: {
          paidOn: '2026-11-21',
          reference: 'TR-77',
          markedBy: 'kari@example.no',
          markedAt: new Date(T0),
        },
      });
      const inEuro = proposalOf(company, {
        ...base,
        amount: 1020,
        currency: 'EUR',
        amountNok: 11899,
        submittedAt: new Date(T0 - DAY),
      });
      const sameReceipt = proposalOf(company, {
        ...base,
        merchant: 'Narvesen',
        merchantKey: 'narvesen',
        amount: 500,
        date: '2026-03-01',
        receipt: receipt('f'.repeat(64)),
        submittedAt: new Date(T0 - 3 * DAY),
      });
      const sameFingerprint = proposalOf(company, {
        ...base,
        amount: 777,
        date: '2025-12-24',
        receipt: receipt('2'.repeat(64)),
        receiptFingerprint: `pdf:${'a'.repeat(64)}`,
        submittedAt: new Date(T0 - 4 * DAY),
      });
      const lookAlikeMerchant = proposalOf(company, { ...base, merchant: 'Spotifi', merchantKey: 'spotifi' });
      const rejected = proposalOf(company, { ...base, status: 'REJECTED', receipt: receipt('f'.repeat(64)) });
      const tooOld = proposalOf(company, { ...base, submittedAt: new Date(T0 - 400 * DAY) });
      const otherCompanys = proposalOf(otherCompany, { ...base, receipt: receipt('f'.repeat(64)) });

      const booking = (overrides: Partial<HistoricalBooking>): HistoricalBooking => ({
        provider: 'tripletex',
        bookingId: 'voucher/1',
        kind: 'voucher',
        date: '2026-11-20',
        merchant: 'Spotify AB',
        accountCode: '6540',
        vatRate: '25',
        amount: 11900,
        ...overrides,
      });
      const near = [
        booking({ bookingId: 'voucher/2', date: '2026-11-19', amount: 11895 }),
        booking({ bookingId: 'supplierInvoice/3', kind: 'supplier_invoice', vatRate: '15', amount: 11905 }),
      ];
      const far = [
        booking({ bookingId: 'voucher/4', amount: 11906 }),
        booking({ bookingId: 'voucher/5', date: '2026-11-22' }),
      ];
      await store({
        patterns: [spotify, spotifyOtherAccount, retired, lookAlike, elsewhere],
        proposals: [nextDay, inEuro, sameReceipt, sameFingerprint, lookAlikeMerchant, rejected, tooOld, otherCompanys],
        bookings: [
          { companyId: company, bookings: [...far, ...near] },
          { companyId: otherCompany, bookings: [booking({ bookingId: 'voucher/6' })] },
        ],
      });

      const read = await subject.reads.read(company, query());

      expect(read.candidates).toEqual([spotify, spotifyOtherAccount].sort((a, b) => (a.id < b.id ? -1 : 1)));
      expect(read.earlier).toEqual([inEuro, nextDay, sameReceipt, sameFingerprint]);
      expect(read.booked).toEqual(near);
      expect(read.sameInvoice).toEqual([]);
    });

    it('reads the look-alikes of a merchant no pattern has, most similar first', async () => {
      const spotify = patternOf(company, { merchantName: 'Spotify' });
      const family = patternOf(company, { merchantName: 'Spotify Family' });
      const unrelated = patternOf(company, { merchantName: 'Rema 1000' });
      await store({ patterns: [family, unrelated, spotify] });

      const read = await subject.reads.read(company, query({ merchantKey: 'spotifi' }));

      expect(read.candidates).toEqual([spotify, family]);
      expect(read).toMatchObject({ earlier: [], booked: [], sameInvoice: [] });
    });

    it('reads a supplier invoice’s twins, not rejected, oldest first, when asked', async () => {
      const first = proposalOf(company, {
        ...invoice,
        merchant: 'Kontorrekvisita AS',
        merchantKey: 'kontorrekvisita',
        submittedAt: new Date(T0),
      });
      const executed = proposalOf(company, {
        ...first,
        id: uniqueId(),
        status: 'EXECUTED',
        invoiceNumber: 'f-10 01',
        submittedAt: new Date(T0 + 60_000),
        booking: { provider: 'fiken', bookingId: 'purchase-9' },
      });
      const rejected = proposalOf(company, { ...invoice, status: 'REJECTED', submittedAt: new Date(T0 + 1) });
      const otherNumber = proposalOf(company, { ...invoice, invoiceNumber: 'F-1002' });
      const elsewhere = proposalOf(otherCompany, invoice);
      await store({ proposals: [executed, rejected, first, otherNumber, elsewhere] });
      const asked = query({ supplierInvoice: { organizationNumber: '923609016', invoiceNumber: ' F-10 01' } });

      const read = await subject.reads.read(company, asked);

      expect(read.sameInvoice).toEqual([first, executed]);
      expect(read.sameInvoice).toEqual(await subject.proposals.findSupplierInvoices(company, '923609016', ' F-10 01'));
      expect((await subject.reads.read(company, query())).sameInvoice).toEqual([]);
    });

    it('reads the patterns of the exact key alone when there are some, not their look-alikes', async () => {
      const exact = patternOf(company, { merchantName: 'Uber' });
      const otherAccount = patternOf(company, { merchantName: 'Uber', accountCode: '7140' });
      const similar = patternOf(company, { merchantName: 'Uber Eats', accountCode: '6800' });
      const retired = patternOf(company, { merchantName: 'Uber', accountCode: '6300', retiredAt: new Date(T0) });
      for (const pattern of [exact, otherAccount, similar, retired]) await subject.patterns.save(pattern, null);

      const candidates = await candidatesOf('uber');

      expect(candidates.map((p) => p.id)).toEqual([exact.id, otherAccount.id].sort());
    });

    it('reads similar keys, most similar first, when no active pattern has the exact key', async () => {
      const similar = patternOf(company, { merchantName: 'Uber Eats', accountCode: '6800' });
      const closer = patternOf(company, { merchantName: 'Uber Taxi', accountCode: '7140' });
      const unrelated = patternOf(company, { merchantName: 'Telenor Norge' });
      const retired = patternOf(company, { merchantName: 'Uber Tax', retiredAt: new Date(T0) });
      for (const pattern of [similar, closer, unrelated, retired]) await subject.patterns.save(pattern, null);

      const candidates = await candidatesOf('uber taxy');

      expect(candidates.map((p) => p.id)).toEqual([closer.id, similar.id]);
    });

    it('reads every exact-key pattern whatever the limit, and at most the limit of look-alikes', async () => {
      const exact = Array.from({ length: DEFAULT_CANDIDATE_LIMIT + 1 }, (_, i) =>
        patternOf(company, { merchantName: 'Rema 1000', accountCode: String(6300 + i) }),
      );
      for (const suffix of ['Storo', 'Majorstuen', 'Grunerlokka']) {
        await subject.patterns.save(patternOf(company, { merchantName: `Rema 1000 ${suffix}` }), null);
      }
      for (const pattern of exact) await subject.patterns.save(pattern, null);

      const candidates = await candidatesOf('rema 1000');
      const lookAlikes = await candidatesOf('rema 1001');

      expect(candidates.map((p) => p.id)).toEqual(exact.map((p) => p.id).sort());
      expect(lookAlikes.map((p) => p.merchantKey)).toEqual(Array(DEFAULT_CANDIDATE_LIMIT).fill('rema 1000'));
    });

    it('reads a pattern as last saved: its update, and nothing once it is retired', async () => {
      const pattern = patternOf(company, { writtenBy: 'per@example.no', confirmedBy: ['per@example.no'] });
      await subject.patterns.save(pattern, null);
      const edited = {
        ...pattern,
        lastChangedBy: 'kari@example.no',
        confirmedBy: ['kari@example.no', 'per@example.no'],
        version: 2,
      };
      await subject.patterns.save(edited, 1);

      expect(await candidatesOf(pattern.merchantKey)).toEqual([edited]);
      await subject.patterns.save({ ...edited, retiredAt: new Date(T0), version: 3 }, 2);
      expect(await candidatesOf(pattern.merchantKey)).toEqual([]);
    });

    it('reads the duplicate candidates: same receipt, or the merchant with a NOK amount within the range and dates, not rejected, recent', async () => {
      const receipt = (sha256: string) => ({ filename: 'r.pdf', contentType: 'application/pdf', sizeBytes: 1, sha256 });
      const base = { amount: 11900, date: '2026-11-20', submittedAt: new Date(T0) };
      const sameAmountNextDay = proposalOf(company, { ...base, date: '2026-11-21', receipt: receipt('1'.repeat(64)) });
      const sameReceipt = proposalOf(company, {
        ...base,
        amount: 500,
        date: '2026-03-01',
        receipt: receipt('f'.repeat(64)),
      });
      const rejected = proposalOf(company, { ...base, status: 'REJECTED', receipt: receipt('f'.repeat(64)) });
      const tooOld = proposalOf(company, { ...base, submittedAt: new Date(T0 - 400 * 86_400_000) });
      const withinRange = proposalOf(company, { ...base, amount: 11901, receipt: null });
      const otherAmount = proposalOf(company, { ...base, amount: 11960, receipt: null });
      const inEuro = proposalOf(company, { ...base, amount: 1020, currency: 'EUR', amountNok: 11899, receipt: null });
      const euroOfAnotherNokAmount = proposalOf(company, {
        ...base,
        amount: 11900,
        currency: 'EUR',
        amountNok: 139_000,
        receipt: null,
      });
      const monthLater = proposalOf(company, { ...base, date: '2026-12-20', receipt: null });
      const otherMerchant = proposalOf(company, {
        ...base,
        merchant: 'Narvesen',
        merchantKey: 'narvesen',
        receipt: receipt('2'.repeat(64)),
      });
      const elsewhere = proposalOf(otherCompany, { ...base, receipt: receipt('f'.repeat(64)) });
      for (const p of [
        otherMerchant,
        sameAmountNextDay,
        sameReceipt,
        rejected,
        tooOld,
        withinRange,
        otherAmount,
        inEuro,
        euroOfAnotherNokAmount,
        monthLater,
        elsewhere,
      ]) {
        await subject.proposals.insert(p);
      }

      const found = await earlierOf({
        receiptSha256: 'f'.repeat(64),
        receiptFingerprint: null,
        merchantKey: sameAmountNextDay.merchantKey,
        amountMin: 11895,
        amountMax: 11905,
        dateFrom: '2026-11-19',
        dateTo: '2026-11-21',
        submittedSince: new Date(T0 - 365 * 86_400_000),
      });

      expect(found.map((p) => p.id).sort()).toEqual(
        [sameAmountNextDay.id, sameReceipt.id, withinRange.id, inEuro.id].sort(),
      );
      expect(found.find((p) => p.id === sameReceipt.id)).toEqual(sameReceipt);
      expect(found.find((p) => p.id === inEuro.id)).toEqual(inEuro);
    });

    it('reads the same receipt by fingerprint: a PDF’s equal, an image’s within a few bits, whatever the amount and date', async () => {
      const receipt = { filename: 'r', contentType: 'image/png', sizeBytes: 1, sha256: '2'.repeat(64) };
      const far = { amount: 777, date: '2025-12-24', submittedAt: new Date(T0), receipt };
      const image = 'phash:00ff00ff00ff00ff';
      const nearImage = proposalOf(company, { ...far, receiptFingerprint: 'phash:00ff00ff00ff00f0' }); // 4 bits
      const otherImage = proposalOf(company, { ...far, receiptFingerprint: 'phash:00ff00ff00ff00e0' }); // 5 bits
      const samePdf = proposalOf(company, { ...far, receiptFingerprint: `pdf:${'a'.repeat(64)}` });
      const otherPdf = proposalOf(company, { ...far, receiptFingerprint: `pdf:${'b'.repeat(64)}` });
      const rejectedImage = proposalOf(company, { ...far, status: 'REJECTED', receiptFingerprint: image });
      const elsewhere = proposalOf(otherCompany, { ...far, receiptFingerprint: image });
      for (const p of [nearImage, otherImage, samePdf, otherPdf, rejectedImage, elsewhere])
        await subject.proposals.insert(p);
      const query = (receiptFingerprint: string | null) =>
        earlierOf({
          receiptSha256: 'e'.repeat(64),
          receiptFingerprint,
          merchantKey: 'spotify',
          amountMin: 11895,
          amountMax: 11905,
          dateFrom: '2026-11-19',
          dateTo: '2026-11-21',
          submittedSince: new Date(T0 - 365 * 86_400_000),
        });

      expect((await query(image)).map((p) => p.id)).toEqual([nearImage.id]);
      expect(await query(`pdf:${'a'.repeat(64)}`)).toEqual([samePdf]);
      expect(await query(null)).toEqual([]);
    });
  });
}
