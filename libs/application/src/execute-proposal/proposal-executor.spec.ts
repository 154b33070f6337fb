import {
  AccountingProvider,
  ProviderConnectionRepository,
  ProviderError,
  transitionProposal,
  type BookingRef,
  type ExpenseBooking,
  type ExpenseDetails,
  type Posting,
  type ProviderCallOptions,
  type ProviderConnectionRecord,
} from '@app/domain';
import {
  aPattern,
  aProposal,
  aProposalHistory,
  anOrigin,
  aReviewerOrigin,
  createInMemoryAdapters,
  InMemoryCompanyContextStore,
  InMemoryEmployeeMappingRepository,
  SUBMITTER,
  testProviderRegistry,
} from '@app/testing';
import { ProviderConnections } from '../onboarding/provider-connections';
import { ApplicationContext } from '../shared/domain-context.provider';
import { ExecutorOptions } from './executor.options';
import { ProposalExecutor } from './proposal-executor';

/** A provider that books into a list and fails as told. */
class FakeProvider {
  readonly bookings: ExpenseBooking[] = [];
  failWith: ProviderError | null = null;
  /** The next create lands at the provider but its answer is lost (a timeout after the fact). */
  loseNextAnswer = false;
  lookups = 0;
  /** The next N searches by reference miss although the booking exists (a lagging search index). */
  hideFromLookups = 0;
  /** The next N receipt uploads fail transiently (the booking stays, its id on the error). */
  failUploads = 0;
  /** How those uploads fail. */
  uploadError = new ProviderError('tripletex', 'unavailable', 'attachment upload: 503');
  /** The options of the last create. */
  lastOptions: ProviderCallOptions | undefined;
  readonly attached: string[] = [];
  /** Awaited before each create: a test holds a booking in flight with it. */
  gate: (booking: ExpenseBooking) => Promise<void> = () => Promise.resolve();

  async bookExpense(_conn: unknown, booking: ExpenseBooking, options?: ProviderCallOptions): Promise<BookingRef> {
    this.lastOptions = options;
    await this.gate(booking);
    if (this.failWith) throw this.failWith;
    this.bookings.push(booking);
    const bookingId = `voucher-${this.bookings.length}`;
    if (booking.receipt && this.failUploads > 0) {
      this.failUploads--;
      throw this.uploadError.withBookingId(bookingId);
    }
    if (booking.receipt) this.attached.push(bookingId);
    if (this.loseNextAnswer) {
      this.loseNextAnswer = false;
      throw new ProviderError('tripletex', 'timeout', 'no answer within 10 s');
    }
    return { bookingId: `voucher-${this.bookings.length}`, hasAttachment: false };
  }

  async findBookingByReference(_conn: unknown, reference: string): Promise<BookingRef | null> {
    this.lookups++;
    if (this.failWith) throw this.failWith;
    if (this.hideFromLookups > 0) {
      this.hideFromLookups--;
      return null;
    }
    const index = this.bookings.findIndex((b) => b.reference === reference);
    if (index < 0) return null;
    const bookingId = `voucher-${index + 1}`;
    return { bookingId, hasAttachment: this.attached.includes(bookingId) };
  }

  async attachReceipt(_conn: unknown, bookingId: string): Promise<void> {
    if (this.failWith) throw this.failWith;
    if (this.failUploads > 0) {
      this.failUploads--;
      throw new ProviderError('tripletex', 'unavailable', 'attachment upload: 503');
    }
    this.attached.push(bookingId);
  }

  /** What the ledger shows for a booking: set by a test, else the read-back fails. */
  ledger: Posting[] | null = null;

  async bookedPostings(): Promise<Posting[]> {
    if (!this.ledger) throw new ProviderError('tripletex', 'unavailable', 'the ledger is not available');
    return this.ledger;
  }
}

const RECORD: ProviderConnectionRecord = {
  companyId: 'acme',
  provider: 'tripletex',
  status: 'connected',
  externalCompanyId: '108001',
  externalCompanyName: 'Acme AS',
  accessTokenExpiresAt: null,
  reauthorizationReason: null,
  connectedBy: 'anne@acme.no',
  connectedAt: new Date('2026-11-01T00:00:00Z'),
  updatedAt: new Date('2026-11-01T00:00:00Z'),
};

function aWorld(options: Partial<ExecutorOptions> = {}) {
  const adapters = createInMemoryAdapters('2026-11-20T10:00:00.000Z');
  const { executions } = adapters;
  const provider = new FakeProvider();
  const employees = new InMemoryEmployeeMappingRepository();
  const repository = {
    // Two companies connected: acme and initech.
    find: async (companyId: string) =>
      companyId === 'acme' || companyId === 'initech' ? { ...RECORD, companyId } : null,
    employeeToken: async () => 'employee-token',
    markNeedsReauthorization: async () => undefined,
  } as unknown as ProviderConnectionRepository;
  const executor = new ProposalExecutor(
    executions.queue,
    adapters.unitOfWork,
    adapters.proposals,
    adapters.settings,
    adapters.receipts,
    new ProviderConnections(repository, testProviderRegistry()),
    provider as unknown as AccountingProvider,
    new ApplicationContext(adapters.clock, adapters.ids),
    new ExecutorOptions({
      retryBaseMs: 1_000,
      maxTransientAttempts: 3,
      failedRetryMs: 60_000,
      reconcilePauseMs: 1,
      ...options,
    }),
    employees,
    new InMemoryCompanyContextStore(),
  );
  const approve = async (companyId = 'acme', details: Partial<ExpenseDetails> = {}) => {
    const proposed = aProposal('PROPOSED', { ctx: adapters.ctx, companyId, details });
    await adapters.proposals.insert(proposed);
    const approved = transitionProposal(proposed, { type: 'Approve', origin: aReviewerOrigin() }, adapters.ctx);
    await adapters.events.append(approved.events);
    await adapters.proposals.update(approved.proposal, proposed.version);
    return approved.proposal;
  };
  /** A proposal auto-approved with `delayMinutes` to wait, its events stored. */
  const autoApprove = async (delayMinutes = 0, details: { merchant?: string; amount?: number } = {}) => {
    const proposed = aProposalHistory('PROPOSED', { ctx: adapters.ctx, companyId: 'acme', score: 0.95, details });
    await adapters.events.append(proposed.events);
    await adapters.proposals.insert(proposed.proposal);
    const approved = transitionProposal(
      proposed.proposal,
      { type: 'AutoApprove', origin: anOrigin(), executionDelayMinutes: delayMinutes },
      adapters.ctx,
    );
    await adapters.events.append(approved.events);
    await adapters.proposals.update(approved.proposal, proposed.proposal.version);
    return approved.proposal;
  };
  return { ...adapters, executions, provider, executor, approve, autoApprove, employees };
}

describe('ProposalExecutor: postings', () => {
  it('reads the postings back after booking and records them on the proposal and Executed, without differences', async () => {
    const w = aWorld();
    const proposal = await w.approve('acme', { amount: 12_500 });
    w.provider.ledger = [
      { accountCode: '6540', amount: 10_000, vatCode: '1', party: null, description: null, generated: false },
      { accountCode: '2710', amount: 2_500, vatCode: '1', party: null, description: null, generated: true },
      { accountCode: '1920', amount: -12_500, vatCode: null, party: null, description: null, generated: false },
    ];

    expect(await w.executor.runOnce()).toEqual(['executed']);

    const executed = await w.proposals.findById('acme', proposal.id);
    expect(executed?.readBack).toMatchObject({ booked: w.provider.ledger, differences: [], error: null });
    expect(executed?.readBack?.planned?.map((p) => [p.accountCode, p.amount])).toEqual([
      ['6540', 10_000],
      ['2710', 2_500],
      ['1920', -12_500],
    ]);
    const events = await w.events.readChain('acme', proposal.correlationId);
    expect(events.at(-1)?.data).toMatchObject({ readBack: { differences: [], error: null } });
  });

  it('flags postings the provider booked otherwise', async () => {
    const w = aWorld();
    const proposal = await w.approve('acme', { amount: 12_500 });
    w.provider.ledger = [
      { accountCode: '6540', amount: 12_500, vatCode: '0', party: null, description: null, generated: false },
      { accountCode: '1920', amount: -12_500, vatCode: null, party: null, description: null, generated: false },
    ];

    await w.executor.runOnce();

    expect((await w.proposals.findById('acme', proposal.id))?.readBack?.differences).toEqual([
      'account 6540, VAT code 1: planned 10000 øre, booked 0 øre',
      'account 2710: planned 2500 øre, booked 0 øre',
      'account 6540: planned 0 øre, booked 12500 øre',
    ]);
  });

  it('executes all the same when the postings cannot be read back, and records why', async () => {
    const w = aWorld();
    const proposal = await w.approve();

    expect(await w.executor.runOnce()).toEqual(['executed']);

    const executed = await w.proposals.findById('acme', proposal.id);
    expect(executed?.status).toBe('EXECUTED');
    expect(executed?.readBack).toMatchObject({ booked: null, error: expect.stringContaining('not available') });
  });

  it('books an employee expense as owed to the submitter’s mapped employee', async () => {
    const w = aWorld();
    await w.employees.save(
      'acme',
      SUBMITTER,
      {
        email: 'kari@acme.no',
        role: 'employee',
        externalIdentities: [],
        providerEmployeeId: '42',
        defaultDepartmentId: null,
      },
      w.clock.now(),
    );
    await w.approve('acme', { paidWith: 'employee' });

    expect(await w.executor.runOnce()).toEqual(['executed']);

    expect(w.provider.bookings[0]).toMatchObject({
      paidWith: 'employee',
      paymentAccount: '2910',
      employee: { providerId: '42', email: 'kari@acme.no' },
    });
  });

  it('refuses for good an employee expense whose submitter is not mapped, books nothing and says why', async () => {
    const w = aWorld();
    const proposal = await w.approve('acme', { paidWith: 'employee' });

    expect(await w.executor.runOnce()).toEqual(['failed']);

    expect(w.provider.bookings).toEqual([]);
    expect((await w.proposals.findById('acme', proposal.id))?.lastExecutionError).toContain('employee mapping');
  });

  it('refuses for good a company-card expense when the company has no card account', async () => {
    const w = aWorld();
    const proposal = await w.approve('acme', { paidWith: 'company_card' });

    expect(await w.executor.runOnce()).toEqual(['failed']);

    expect((await w.proposals.findById('acme', proposal.id))?.lastExecutionError).toContain(
      'paymentAccounts.company_card',
    );
  });

  it('credits a supplier invoice to accounts payable', async () => {
    const w = aWorld();
    await w.approve('acme', {
      kind: 'supplier_invoice',
      paidWith: null,
      supplier: { name: 'Kontorrekvisita AS', organizationNumber: '923609016', bankAccount: null, kid: null },
      invoiceNumber: 'F-1',
      dueDate: '2026-12-20',
    });

    await w.executor.runOnce();

    expect(w.provider.bookings[0]).toMatchObject({
      kind: 'supplier_invoice',
      paymentAccount: '2400',
      invoiceNumber: 'F-1',
    });
  });
});

describe('ProposalExecutor: a supplier invoice booked once', () => {
  const invoice = (invoiceNumber: string): Partial<ExpenseDetails> => ({
    kind: 'supplier_invoice',
    paidWith: null,
    supplier: { name: 'Kontorrekvisita AS', organizationNumber: '923609016', bankAccount: null, kid: null },
    invoiceNumber,
    dueDate: '2026-12-20',
    receipt: null,
  });

  it('refuses for good the twin of a supplier invoice already executed, naming it, and books another number', async () => {
    const w = aWorld();
    const first = await w.approve('acme', invoice('F-7'));
    expect(await w.executor.drain()).toMatchObject({ executed: 1 });
    const twin = await w.approve('acme', { ...invoice('F-7'), date: '2026-11-19' });
    const next = await w.approve('acme', invoice('F-8'));

    expect(await w.executor.drain()).toMatchObject({ executed: 1, failed: 1 });

    expect(w.provider.bookings.map((b) => b.reference)).toEqual([first.id, next.id]);
    const refused = await w.proposals.findById('acme', twin.id);
    expect(refused?.status).toBe('APPROVED');
    expect(refused?.lastExecutionError).toBe(
      `supplier invoice F-7 of 923609016 is already booked as voucher-1 by proposal ${first.id}: ` +
        'not booked a second time; reject this proposal if it is a duplicate',
    );
    expect(w.notifier.messages('acme').at(-1)).toMatchObject({
      kind: 'execution_failed',
      payload: { proposalId: twin.id, errorCode: 'duplicate_supplier_invoice' },
    });
  });

  it('books one of two twins approved together (the same number written another way), and refuses the other naming it', async () => {
    const w = aWorld();
    const first = await w.approve('acme', invoice('F-9 001'));
    const twin = await w.approve('acme', { ...invoice('f-9001'), date: '2026-11-19', amount: 20000 });

    await w.executor.drain();
    w.clock.advance({ minutes: 10 });
    await w.executor.drain();

    expect(w.provider.bookings.map((b) => b.reference)).toEqual([first.id]);
    const refused = await w.proposals.findById('acme', twin.id);
    expect(refused).toMatchObject({
      status: 'APPROVED',
      lastExecutionError:
        `supplier invoice f-9001 of 923609016 is already booked as voucher-1 by proposal ${first.id}: ` +
        'not booked a second time; reject this proposal if it is a duplicate',
    });
    const failed = (await w.events.readChain('acme', twin.correlationId)).filter((e) => e.type === 'ExecutionFailed');
    expect(failed).toHaveLength(1);
    expect(await w.executor.drain()).toEqual({ executed: 0, retry: 0, deferred: 0, failed: 0, lost: 0 });
  });

  it('lets a twin be booked when the first failed for good without a booking', async () => {
    const w = aWorld();
    const first = await w.approve('acme', invoice('F-10'));
    w.provider.failWith = new ProviderError('tripletex', 'rejected', 'account 6540 is closed');
    await w.executor.drain();
    w.provider.failWith = null;
    const second = await w.approve('acme', invoice('F-10'));

    expect(await w.executor.drain()).toMatchObject({ executed: 1 });
    expect(w.provider.bookings.map((b) => b.reference)).toEqual([second.id]);
    expect(first.id).not.toBe(second.id);
  });
});

/** Lets the executor's promises run until `done` holds; fails when it never does. */
async function until(done: () => boolean): Promise<void> {
  for (let i = 0; i < 1_000 && !done(); i++) await new Promise((resolve) => setImmediate(resolve));
  if (!done()) throw new Error('the condition never held');
}

describe('ProposalExecutor: lanes', () => {
  // Proposals without a receipt: the factory's receipt is the same file, booked once.
  it('takes the next claim on a free lane while a slow booking holds another, without waiting for its batch', async () => {
    const w = aWorld({ batchSize: 2, concurrency: 2 });
    for (let i = 0; i < 4; i++) await w.approve('acme', { receipt: null });
    let release = (): void => undefined;
    const released = new Promise<void>((resolve) => (release = resolve));
    let held = false;
    w.provider.gate = () => (held ? Promise.resolve() : ((held = true), released));

    const round = w.executor.runOnce();
    await until(() => w.provider.bookings.length === 3);
    release();
    expect(await round).toEqual(['executed', 'executed', 'executed', 'executed']);
    expect(w.provider.bookings).toHaveLength(4);
  });

  it('claims batch after batch in one round while work is due', async () => {
    const w = aWorld({ batchSize: 1, concurrency: 1 });
    for (let i = 0; i < 3; i++) await w.approve('acme', { receipt: null });
    expect(await w.executor.runOnce()).toEqual(['executed', 'executed', 'executed']);
    expect(await w.executor.runOnce()).toEqual([]);
  });

  it('takes no more claims once told to stop, and executes those it holds', async () => {
    const w = aWorld({ batchSize: 2, concurrency: 1 });
    for (let i = 0; i < 4; i++) await w.approve('acme', { receipt: null });
    const stop = new AbortController();
    w.provider.gate = () => Promise.resolve(stop.abort());
    expect(await w.executor.runOnce(stop.signal)).toEqual(['executed', 'executed']);
    expect(await w.executor.runOnce()).toEqual(['executed', 'executed']);
  });

  it('ends the round after the claims it holds when claiming more fails, and fails when it holds none', async () => {
    const w = aWorld({ batchSize: 1, concurrency: 2 });
    for (let i = 0; i < 3; i++) await w.approve('acme', { receipt: null });
    const claimDue = w.executions.queue.claimDue.bind(w.executions.queue);
    let calls = 0;
    jest
      .spyOn(w.executions.queue, 'claimDue')
      .mockImplementation((...args) =>
        ++calls === 1 ? claimDue(...args) : Promise.reject(new Error('connection terminated')),
      );
    expect(await w.executor.runOnce()).toEqual(['executed']);
    await expect(w.executor.runOnce()).rejects.toThrow('connection terminated');
  });
});

describe("ProposalExecutor: a company's closed rate window", () => {
  /** Tripletex's window for the company reopens in 40 s, longer than the executor waits. */
  const windowClosed = () =>
    new ProviderError('tripletex', 'rate_limited', "tripletex's rate window for this company reopens in 40 s", {
      retryAfterSeconds: 40,
      windowClosed: true,
    });

  it('defers the execution until the window reopens: no attempt counted, no ExecutionFailed, booked once then', async () => {
    const w = aWorld({ rateLimitWaitMs: 3_000 });
    const proposal = await w.approve();
    w.provider.failWith = windowClosed();
    const started = w.clock.now().getTime();

    // More deferrals than the transient attempts (3) that would report a failure.
    for (let i = 0; i < 4; i++) {
      expect(await w.executor.runOnce()).toEqual(['deferred']);
      expect(w.executions.rows.get(proposal.id)).toMatchObject({
        state: 'retry_wait',
        attempts: 0,
        mayBeBooked: false,
      });
      expect(w.executions.rows.get(proposal.id)?.nextAttemptAt?.getTime()).toBe(started + (i + 1) * 40_000);
      w.clock.advance({ seconds: 39 });
      expect(await w.executor.runOnce()).toEqual([]);
      w.clock.advance({ seconds: 1 });
    }
    expect(w.provider.lastOptions).toMatchObject({ maxRateLimitWaitMs: 3_000 });
    w.provider.failWith = null;
    expect(await w.executor.runOnce()).toEqual(['executed']);
    // Still the first attempt: nothing to reconcile.
    expect(w.provider.lookups).toBe(0);
    expect(w.provider.bookings).toHaveLength(1);
    const types = (await w.events.readChain('acme', proposal.correlationId)).map((e) => e.type);
    expect(types).toEqual(['Approved', 'Executed']);
    expect(w.notifier.messages('acme')).toEqual([]);
  });

  it('keeps the booking a deferred attempt created, refuses a reject meanwhile, and attaches the receipt to it', async () => {
    const w = aWorld();
    const sha256 = 'd'.repeat(64);
    const file = { filename: 'r.pdf', contentType: 'application/pdf', sizeBytes: 9, sha256 };
    const proposal = await w.approve('acme', { receipt: file });
    await w.receipts.save({ ...file, proposalId: proposal.id, companyId: 'acme', bytes: new Uint8Array(9) });
    w.provider.failUploads = 1;
    w.provider.uploadError = windowClosed();

    expect(await w.executor.runOnce()).toEqual(['deferred']);
    expect(w.executions.rows.get(proposal.id)).toMatchObject({
      bookingId: 'voucher-1',
      mayBeBooked: true,
      attempts: 0,
    });
    w.provider.hideFromLookups = 5;
    w.clock.advance({ seconds: 40 });
    expect(await w.executor.runOnce()).toEqual(['executed']);
    expect(w.provider.bookings).toHaveLength(1);
    expect(w.provider.attached).toEqual(['voucher-1']);
  });

  it('keeps a known outcome-unknown booking to reconcile: a deferred retry still looks the booking up first', async () => {
    const w = aWorld();
    const proposal = await w.approve();
    w.provider.loseNextAnswer = true;
    expect(await w.executor.runOnce()).toEqual(['retry']);
    w.provider.failWith = windowClosed();
    w.clock.advance({ seconds: 1 });
    expect(await w.executor.runOnce()).toEqual(['deferred']);
    expect(w.executions.rows.get(proposal.id)).toMatchObject({ attempts: 1, mayBeBooked: true });
    w.provider.failWith = null;
    w.clock.advance({ seconds: 40 });
    expect(await w.executor.runOnce()).toEqual(['executed']);
    expect(w.provider.bookings).toHaveLength(1);
  });

  it("frees the lane at once: another company's claim is executed while the deferred ones wait for their window", async () => {
    const w = aWorld({ batchSize: 10, concurrency: 1 });
    for (let i = 0; i < 3; i++) await w.approve('acme', { receipt: null });
    let acmeCreates = 0;
    w.provider.gate = (booking) =>
      w.executions.rows.get(booking.reference)?.companyId === 'acme'
        ? (acmeCreates++, Promise.reject(windowClosed()))
        : Promise.resolve();
    const other = await w.approve('initech', { receipt: null });

    expect(await w.executor.runOnce()).toEqual(['deferred', 'deferred', 'deferred', 'executed']);
    expect(w.provider.bookings.map((b) => b.reference)).toEqual([other.id]);
    // The first refusal closed acme's window: its other claims of the batch were not tried.
    expect(acmeCreates).toBe(1);
  });

  it('claims none of a company whose window is closed until it reopens, then executes them all', async () => {
    const w = aWorld();
    const first = await w.approve('acme', { receipt: null });
    w.provider.failWith = windowClosed();
    expect(await w.executor.runOnce()).toEqual(['deferred']);
    w.provider.failWith = null;
    const later = await w.approve('acme', { receipt: null });
    const elsewhere = await w.approve('initech', { receipt: null });

    w.clock.advance({ seconds: 39 });
    expect(await w.executor.runOnce()).toEqual(['executed']);
    expect(w.provider.bookings.map((b) => b.reference)).toEqual([elsewhere.id]);
    // Due, but left in the queue untouched: no attempt, no deferral.
    expect(w.executions.rows.get(later.id)).toMatchObject({ state: 'pending', attempts: 0 });

    w.clock.advance({ seconds: 1 });
    expect(await w.executor.runOnce()).toEqual(['executed', 'executed']);
    expect(w.provider.bookings.map((b) => b.reference).sort()).toEqual([elsewhere.id, first.id, later.id].sort());
  });
});

describe('ProposalExecutor', () => {
  it('books an approved proposal once with our reference and the payment account, and stores Executed', async () => {
    const w = aWorld();
    const proposal = await w.approve();
    expect(await w.executor.runOnce()).toEqual(['executed']);
    expect(await w.executor.runOnce()).toEqual([]);
    expect(w.provider.bookings).toEqual([
      expect.objectContaining({ reference: proposal.id, paymentAccount: '1920', grossAmount: proposal.amount }),
    ]);
    expect((await w.proposals.findById('acme', proposal.id))?.status).toBe('EXECUTED');
  });

  it('looks the booking up before trying again after an unknown outcome, and never books twice', async () => {
    const w = aWorld();
    const proposal = await w.approve();
    w.provider.loseNextAnswer = true;
    expect(await w.executor.runOnce()).toEqual(['retry']);
    expect(w.executions.rows.get(proposal.id)).toMatchObject({ state: 'retry_wait', mayBeBooked: true });
    w.clock.advance({ seconds: 1 });
    expect(await w.executor.runOnce()).toEqual(['executed']);
    expect(w.provider.bookings).toHaveLength(1);
    expect(w.provider.lookups).toBe(1);
  });

  it('attaches the receipt to the booking it holds after a failed upload, although the search misses it', async () => {
    const w = aWorld();
    const sha256 = 'c'.repeat(64);
    const file = { filename: 'r.pdf', contentType: 'application/pdf', sizeBytes: 9, sha256 };
    const proposal = await w.approve('acme', { receipt: file });
    await w.receipts.save({ ...file, proposalId: proposal.id, companyId: 'acme', bytes: new Uint8Array(9) });
    w.provider.failUploads = 1;
    expect(await w.executor.runOnce()).toEqual(['retry']);
    expect(w.executions.rows.get(proposal.id)).toMatchObject({ bookingId: 'voucher-1' });
    w.provider.hideFromLookups = 5;
    w.clock.advance({ seconds: 1 });
    expect(await w.executor.runOnce()).toEqual(['executed']);
    expect(w.provider.bookings).toHaveLength(1);
    expect(w.provider.attached).toEqual(['voucher-1']);
    expect((await w.proposals.findById('acme', proposal.id))?.status).toBe('EXECUTED');
  });

  it('searches a second time before booking again when the first search after an unknown outcome misses', async () => {
    const w = aWorld();
    await w.approve();
    w.provider.loseNextAnswer = true;
    expect(await w.executor.runOnce()).toEqual(['retry']);
    w.provider.hideFromLookups = 1;
    w.clock.advance({ seconds: 1 });
    expect(await w.executor.runOnce()).toEqual(['executed']);
    expect(w.provider.bookings).toHaveLength(1);
    expect(w.provider.lookups).toBe(2);
  });

  it('reclaims an execution whose worker died once its lease lapses, and reconciles first', async () => {
    const w = aWorld({ leaseMs: 60_000 });
    const proposal = await w.approve();
    const [claim] = await w.executions.queue.claimDue(
      w.clock.now(),
      10,
      new Date(w.clock.now().getTime() + 60_000),
      'dead-worker',
    );
    w.provider.bookings.push({ reference: proposal.id } as ExpenseBooking); // it booked, then died
    expect(await w.executor.runOnce()).toEqual([]); // still leased
    w.clock.advance({ minutes: 1 });
    expect(await w.executor.runOnce()).toEqual(['executed']);
    expect(w.provider.bookings).toHaveLength(1);
    await expect(w.executions.markExecuted(claim, 'x')).rejects.toThrow('no longer held');
  });

  it('retries transient failures with backoff, reports ExecutionFailed once after the attempts, and keeps trying', async () => {
    const w = aWorld();
    const proposal = await w.approve();
    w.provider.failWith = new ProviderError('tripletex', 'unavailable', 'Tripletex answered 503');
    expect(await w.executor.runOnce()).toEqual(['retry']);
    w.clock.advance({ seconds: 1 });
    expect(await w.executor.runOnce()).toEqual(['retry']);
    w.clock.advance({ seconds: 2 });
    expect(await w.executor.runOnce()).toEqual(['retry']);
    const types = async () => (await w.events.readChain('acme', proposal.correlationId)).map((e) => e.type);
    expect(await types()).toEqual(['Approved', 'ExecutionFailed']);
    expect(w.notifier.messages('acme').map((m) => [m.kind, m.target])).toEqual([['execution_failed', 'review']]);
    w.clock.advance({ seconds: 59 });
    expect(await w.executor.runOnce()).toEqual([]);
    w.provider.failWith = null;
    w.clock.advance({ seconds: 1 });
    expect(await w.executor.runOnce()).toEqual(['executed']);
    expect(await types()).toEqual(['Approved', 'ExecutionFailed', 'Executed']);
  });

  it('stores a permanent failure with the provider message and leaves the proposal APPROVED, without retrying', async () => {
    const w = aWorld();
    const proposal = await w.approve();
    w.provider.failWith = new ProviderError(
      'tripletex',
      'unknown_account',
      'Tripletex has no account 6540 in this company',
    );
    expect(await w.executor.runOnce()).toEqual(['failed']);
    expect(await w.proposals.findById('acme', proposal.id)).toMatchObject({
      status: 'APPROVED',
      lastExecutionError: 'Tripletex has no account 6540 in this company',
    });
    w.clock.advance({ hours: 5 });
    expect(await w.executor.runOnce()).toEqual([]);
  });

  it('fails permanently with provider_not_connected for a company without a connection', async () => {
    const w = aWorld();
    await w.approve('globex');
    expect(await w.executor.runOnce()).toEqual(['failed']);
    expect(w.notifier.messages('globex')[0].payload).toMatchObject({ errorCode: 'provider_not_connected' });
  });
});

describe('ProposalExecutor and the amounts patterns learn', () => {
  const spotify = () => aPattern({ id: 'p-spotify', companyId: 'acme', approvals: 1, amounts: [11900] });
  const observations = async (w: ReturnType<typeof aWorld>) =>
    (await w.patterns.findById('acme', 'p-spotify'))!.amountStats.count;

  it('adds an executed auto-approval to its pattern as one more amount, in the unit of its Executed event', async () => {
    const w = aWorld();
    await w.patterns.save(spotify(), null);
    const proposal = await w.autoApprove(0, { amount: 12900 });

    expect(await w.executor.runOnce()).toEqual(['executed']);

    const pattern = await w.patterns.findById('acme', 'p-spotify');
    expect(pattern).toMatchObject({ approvals: 1, version: 2, amountStats: { count: 2, min: 11900, max: 12900 } });
    const saved = w.events.all().filter((e) => e.correlationId === 'p-spotify');
    expect(saved).toEqual([
      expect.objectContaining({
        type: 'PatternSaved',
        sequence: 2,
        proposalId: proposal.id,
        actor: SUBMITTER,
        data: expect.objectContaining({ cause: 'auto_approval_executed' }),
      }),
    ]);
  });

  it('counts it once: a second run, or a second claim of the same execution, adds nothing', async () => {
    const w = aWorld({ leaseMs: 60_000 });
    await w.patterns.save(spotify(), null);
    await w.autoApprove();
    await w.executor.runOnce();
    w.clock.advance({ minutes: 5 });

    expect(await w.executor.runOnce()).toEqual([]);
    expect(await observations(w)).toBe(2);
  });

  it('counts it once although recording failed and the next attempt reconciled', async () => {
    const w = aWorld({ leaseMs: 60_000 });
    await w.patterns.save(spotify(), null);
    const proposal = await w.autoApprove();
    const mark = jest.spyOn(w.executions, 'markExecuted').mockRejectedValueOnce(new Error('connection lost'));

    expect(await w.executor.runOnce()).toEqual(['lost']);
    expect(await observations(w)).toBe(1);
    w.clock.advance({ minutes: 1 });
    expect(await w.executor.runOnce()).toEqual(['executed']);

    expect(mark).toHaveBeenCalledTimes(2);
    expect(w.provider.bookings).toHaveLength(1);
    expect(await observations(w)).toBe(2);
    expect((await w.proposals.findById('acme', proposal.id))?.status).toBe('EXECUTED');
  });

  it('never counts an auto-approval rejected during its delay', async () => {
    const w = aWorld();
    await w.patterns.save(spotify(), null);
    const approved = await w.autoApprove(15);
    const rejected = transitionProposal(
      approved,
      { type: 'Reject', origin: aReviewerOrigin(), reason: 'private subscription' },
      w.ctx,
    );
    await w.events.append(rejected.events);
    await w.proposals.update(rejected.proposal, approved.version);
    w.clock.advance({ minutes: 20 });

    expect(await w.executor.runOnce()).toEqual([]);
    expect(await observations(w)).toBe(1);
  });

  it("does not count a reviewer's approval again: it was observed when approved", async () => {
    const w = aWorld();
    await w.patterns.save(spotify(), null);
    await w.approve();

    expect(await w.executor.runOnce()).toEqual(['executed']);
    expect(await observations(w)).toBe(1);
  });

  it('leaves a pattern retired meanwhile alone, and still records the execution', async () => {
    const w = aWorld();
    await w.patterns.save({ ...spotify(), retiredAt: w.clock.now() }, null);
    await w.autoApprove();

    expect(await w.executor.runOnce()).toEqual(['executed']);
    expect(await observations(w)).toBe(1);
  });

  it('re-reads a pattern a review strengthened at the same moment, and counts both', async () => {
    const w = aWorld();
    await w.patterns.save(spotify(), null);
    await w.autoApprove();
    const stale = spotify();
    // A review strengthened the pattern after the executor read it (the read answers the old version).
    await w.patterns.save({ ...stale, approvals: 2, amountStats: { ...stale.amountStats, count: 5 }, version: 2 }, 1);
    const read = jest.spyOn(w.patterns, 'findActiveByKey').mockResolvedValueOnce(stale);

    expect(await w.executor.runOnce()).toEqual(['executed']);
    expect(await w.patterns.findById('acme', 'p-spotify')).toMatchObject({ approvals: 2, version: 3 });
    expect(await observations(w)).toBe(6);
    expect(read).toHaveBeenCalledTimes(2);
  });
  describe('a receipt booked once', () => {
    const receipt = (sha256: string) => ({ filename: 'r.pdf', contentType: 'application/pdf', sizeBytes: 9, sha256 });

    it('books the first of two approved proposals with the same receipt and refuses the second for good', async () => {
      const w = aWorld();
      const first = await w.approve('acme', { receipt: receipt('b'.repeat(64)) });
      const second = await w.approve('acme', { receipt: receipt('b'.repeat(64)), date: '2026-11-21' });

      await w.executor.drain();
      w.clock.advance({ minutes: 10 });
      await w.executor.drain();

      expect(w.provider.bookings.map((b) => b.reference)).toEqual([first.id]);
      expect((await w.proposals.findById('acme', second.id))?.lastExecutionError).toBe(
        `the same receipt is already booked as voucher-1 by proposal ${first.id}: not booked a second time; reject this proposal if it is a duplicate`,
      );
      expect((await w.proposals.findById('acme', second.id))?.status).toBe('APPROVED');
      expect(w.notifier.messages('acme').at(-1)).toMatchObject({
        kind: 'execution_failed',
        payload: { proposalId: second.id, errorCode: 'duplicate_receipt' },
      });
      expect(await w.bookedReceipts.find('acme', 'b'.repeat(64))).toEqual({
        proposalId: first.id,
        bookingId: 'voucher-1',
      });
      expect(await w.executor.drain()).toEqual({ executed: 0, retry: 0, deferred: 0, failed: 0, lost: 0 });
    });

    it('frees the receipt of an execution that failed for good, so another proposal may book it', async () => {
      const w = aWorld();
      const first = await w.approve('acme', { receipt: receipt('c'.repeat(64)) });
      w.provider.failWith = new ProviderError('tripletex', 'rejected', 'account 6540 is closed');
      await w.executor.drain();
      w.provider.failWith = null;
      const second = await w.approve('acme', { receipt: receipt('c'.repeat(64)) });

      expect(await w.executor.drain()).toMatchObject({ executed: 1 });
      expect(w.provider.bookings.map((b) => b.reference)).toEqual([second.id]);
      expect(first.id).not.toBe(second.id);
    });

    it('keeps the receipt while an execution may have booked it', async () => {
      const w = aWorld();
      const first = await w.approve('acme', { receipt: receipt('d'.repeat(64)) });
      w.provider.loseNextAnswer = true;
      await w.executor.runOnce();
      const second = await w.approve('acme', { receipt: receipt('d'.repeat(64)) });
      for (let round = 0; round < 3; round++) {
        w.clock.advance({ minutes: 10 });
        await w.executor.drain();
      }

      expect(w.provider.bookings.map((b) => b.reference)).toEqual([first.id]);
      expect((await w.proposals.findById('acme', first.id))?.status).toBe('EXECUTED');
      expect((await w.proposals.findById('acme', second.id))?.lastExecutionError).toMatch(
        /already booked as voucher-1/,
      );
    });
  });
});
