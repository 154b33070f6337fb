import type { SubmissionReadQuery, SubmissionReads } from '@app/application';
import type {
  BookingHistoryStore,
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
 * The SubmissionReads contract: for the same data, each part of the one read is exactly — field by
 * field, type by type — what the port that owns its table returns for the same question, and what
 * was stored there. A part mapped wrongly (a timestamp left as text, a bigint as a string, a date
 * shifted, a JSON column flattened) fails the deep equality.
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

    it('reads the merchant’s patterns, its possible duplicates and the provider’s near bookings as their stores do', async () => {
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
      expect(read.candidates).toEqual(await subject.patterns.findCandidates(company, 'spotify'));
      expect(read.earlier).toEqual([inEuro, nextDay, sameReceipt, sameFingerprint]);
      expect(read.earlier).toEqual(await subject.proposals.findDuplicateCandidates(company, query()));
      expect(read.booked).toEqual(near);
      expect(read.booked).toEqual(await subject.history.findNear(company, 11895, 11905, '2026-11-19', '2026-11-21'));
      expect(read.sameInvoice).toEqual([]);
    });

    it('reads the look-alikes of a merchant no pattern has, most similar first', async () => {
      const spotify = patternOf(company, { merchantName: 'Spotify' });
      const family = patternOf(company, { merchantName: 'Spotify Family' });
      const unrelated = patternOf(company, { merchantName: 'Rema 1000' });
      await store({ patterns: [family, unrelated, spotify] });

      const read = await subject.reads.read(company, query({ merchantKey: 'spotifi' }));

      expect(read.candidates).toEqual([spotify, family]);
      expect(read.candidates).toEqual(await subject.patterns.findCandidates(company, 'spotifi'));
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
  });
}
