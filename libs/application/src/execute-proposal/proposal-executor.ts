import { hostname } from 'node:os';
import { createHash, randomUUID } from 'node:crypto';
import { Injectable, Logger } from '@nestjs/common';
import {
  AccountingProvider,
  ApiCallLog,
  CompanyContextStore,
  CompanySettingsStore,
  DomainError,
  EmployeeMappingRepository,
  plannedPostings,
  postingDifferences,
  type BookingEmployee,
  type ExpenseBooking,
  type PostingsReadBack,
  formatMoney,
  learningKeyOf,
  normalizeInvoiceNumber,
  observeExecutedAutoApproval,
  ProposalRepository,
  ProviderError,
  transitionProposal,
  type ApiCall,
  type BookingRef,
  type EventOrigin,
  type OutboundMessage,
  type Proposal,
  bookingLinesOf,
  creditAccountOf,
  type ProviderConnection,
  type ProviderKind,
  type Receipt,
} from '@app/domain';
import { ProviderConnections } from '../onboarding/provider-connections';
import { ReceiptStore } from '../receipts/receipt-store.port';
import { ApplicationContext } from '../shared/domain-context.provider';
import { retryOnConflict } from '../shared/retry-on-conflict';
import { UnitOfWork, type TransactionalPorts } from '../shared/unit-of-work.port';
import { ExecutionQueue, type ExecutionClaim } from './execution-ledger.port';
import type { ReceiptHolder } from './booked-receipts.port';
import { ExecutorOptions } from './executor.options';

/** What one execution ended in. */
export type ExecutionOutcome = 'executed' | 'retry' | 'deferred' | 'failed' | 'lost';

/** A failure and whether trying again later may help. */
interface Failure {
  readonly message: string;
  readonly code: string;
  readonly transient: boolean;
  /** The booking exists at the provider although the operation failed afterwards. */
  readonly bookingId: string | null;
  /** The provider may hold the booking: the outcome of a create is unknown. */
  readonly mayBeBooked: boolean;
  /**
   * The company's rate window at the provider is closed for this long, longer than `rateLimitWaitMs`:
   * the request the execution stopped at was not carried out (not sent, or refused with a 429).
   */
  readonly windowReopensInMs?: number;
}

/**
 * Executes APPROVED proposals whose `executeAfter` has passed, exactly once (docs/api.md §4.4):
 *
 * 1. claim: the queue marks the execution in flight, durably, under the proposal's row lock,
 *    before the provider is called (so a reject racing it is refused from then on); the receipt
 *    (its SHA-256) is reserved for the proposal in the company's booked receipts, and a receipt
 *    another proposal booked is not booked again: `ExecutionFailed` (duplicate_receipt), for good
 *    (while the other is still being booked, the execution waits and tries again); a supplier
 *    invoice is reserved the same way under its key (supplierInvoiceKeyOf: supplier organisation
 *    number + normalised invoice number), so that of two twins approved at once — in one batch or
 *    on two instances — one is booked and the other gets `ExecutionFailed`
 *    (duplicate_supplier_invoice) naming it, for good; so does the twin of one EXECUTED before
 *    the reservations existed;
 * 2. reconcile: any attempt after the first looks the booking up by our reference (the proposal
 *    id), twice when the first search misses, and books only when it is not there; a booking that
 *    exists without its receipt only gets the receipt attached, and a booking id an earlier attempt
 *    learnt (created, receipt upload failed) is never booked again;
 * 3. book: Tripletex voucher / Fiken cash purchase on the company's payment account, receipt
 *    attached, proposal id as the external reference;
 * 4. record: `Executed` (booking id, api_calls), for an auto-approval one more amount observation
 *    of its pattern, and the execution's end in one unit of work (a failure to record a booking
 *    leaves the claim to run out, and the next attempt reconciles). A
 *    transient failure is retried with exponential backoff; after `maxTransientAttempts` in a row
 *    `ExecutionFailed` is stored once and the review channel told, and tries continue slowly. A
 *    permanent failure stores `ExecutionFailed` with the provider's message, tells the review
 *    channel, and leaves the proposal APPROVED (it can still be rejected).
 *
 * A lane never waits long for one company's rate window at the provider: a provider call that
 * would wait more than `rateLimitWaitMs` fails at once instead (`windowClosed`), before its request
 * is sent, and the execution is deferred until the window reopens — not counted as an attempt, as
 * nothing it sent can have booked unseen (a create with an unknown outcome fails as `unavailable` or
 * `timeout`, never so; one that booked hands its booking id on, which is kept) — and the lane takes
 * the next claim. So a company whose bookings outrun its window does not hold every lane while
 * other companies' bookings are due.
 *
 * No database transaction is open while the provider is called.
 */
@Injectable()
export class ProposalExecutor {
  private readonly logger = new Logger(ProposalExecutor.name);
  /** Who claims: host, process and a random suffix (several workers may share a process in tests). */
  readonly workerId = `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;

  /**
   * Companies whose rate window at the provider is closed, with when it reopens (ms): learnt from a
   * deferred execution, so that no lane claims or starts another of theirs until then (each would
   * only be deferred in turn: with a backlog larger than the window, every execution of it, again at
   * every reopening). In this process only: another instance learns it from its own first deferral.
   */
  private readonly closedWindows = new Map<string, number>();

  constructor(
    private readonly queue: ExecutionQueue,
    private readonly unitOfWork: UnitOfWork,
    private readonly proposals: ProposalRepository,
    private readonly settings: CompanySettingsStore,
    private readonly receipts: ReceiptStore,
    private readonly connections: ProviderConnections,
    private readonly provider: AccountingProvider,
    private readonly ctx: ApplicationContext,
    private readonly options: ExecutorOptions,
    private readonly employees: EmployeeMappingRepository,
    private readonly contexts: CompanyContextStore,
  ) {}

  /**
   * One round: executes due proposals on `concurrency` lanes, each taking the next claim as soon as
   * it is done with one. Claims are taken `batchSize` at a time, a new batch when the last is all
   * taken, until the queue gives fewer than asked (nothing more is due now) or `stop` is aborted
   * (shutdown: the claims already taken are still executed). Returns what each execution ended in.
   */
  async runOnce(stop?: AbortSignal): Promise<ExecutionOutcome[]> {
    const outcomes: ExecutionOutcome[] = [];
    const waiting: ExecutionClaim[] = [];
    // The lease is short (a dead worker's claims come back within seconds); while the round runs,
    // its unsettled claims (waiting for a lane, or executing) are renewed every third of it.
    const unsettled = new Set<ExecutionClaim>();
    let exhausted = false;
    let claiming: Promise<void> | null = null;
    let claimError: unknown = null;
    const claimBatch = async (): Promise<void> => {
      const now = this.ctx.clock.now();
      const leaseUntil = new Date(now.getTime() + this.options.leaseMs);
      let claims: ExecutionClaim[];
      try {
        claims = await this.queue.claimDue(
          now,
          this.options.batchSize,
          leaseUntil,
          this.workerId,
          this.companiesWaitingForWindow(now),
        );
      } catch (error) {
        // The lanes still finish the claims they hold; the round ends after them.
        claimError = error;
        exhausted = true;
        return;
      }
      if (claims.length < this.options.batchSize) exhausted = true;
      for (const claim of claims) unsettled.add(claim);
      waiting.push(...claims);
    };
    /** The next claim to execute, claiming a batch when none is waiting; null: the round is over. */
    const nextClaim = async (): Promise<ExecutionClaim | null> => {
      while (waiting.length === 0 && !exhausted && !stop?.aborted) {
        claiming ??= claimBatch().finally(() => (claiming = null));
        await claiming;
      }
      return waiting.shift() ?? null;
    };
    const renewal = setInterval(
      () => void this.renew([...unsettled]),
      Math.max(1, Math.floor(this.options.leaseMs / 3)),
    );
    const lane = async (): Promise<void> => {
      for (let claim = await nextClaim(); claim !== null; claim = await nextClaim()) {
        outcomes.push(await this.execute(claim));
        unsettled.delete(claim);
      }
    };
    try {
      await Promise.all(Array.from({ length: this.options.concurrency }, lane));
    } finally {
      clearInterval(renewal);
    }
    if (claimError !== null) {
      if (outcomes.length === 0) throw claimError;
      this.logger.warn(`claiming more executions failed, the round ends: ${describe(claimError)}`);
    }
    return outcomes;
  }

  /** Extends the leases of claims still running; a failure is logged (the lease then lapses). */
  private async renew(claims: ExecutionClaim[]): Promise<void> {
    if (claims.length === 0) return;
    try {
      await this.queue.renew(claims, new Date(this.ctx.clock.now().getTime() + this.options.leaseMs));
    } catch (error) {
      this.logger.warn(`renewing ${claims.length} execution lease(s) failed: ${describe(error)}`);
    }
  }

  /** Runs rounds until nothing is due; returns how many executions ended in each outcome. */
  async drain(maxRounds = 1_000): Promise<Record<ExecutionOutcome, number>> {
    const totals: Record<ExecutionOutcome, number> = { executed: 0, retry: 0, deferred: 0, failed: 0, lost: 0 };
    for (let round = 0; round < maxRounds; round++) {
      const outcomes = await this.runOnce();
      if (outcomes.length === 0) break;
      for (const outcome of outcomes) totals[outcome]++;
    }
    return totals;
  }

  /** Executes one claimed proposal. Never throws: every failure is recorded on the execution. */
  async execute(claim: ExecutionClaim): Promise<ExecutionOutcome> {
    try {
      return await this.attempt(claim);
    } catch (error) {
      // The outcome could not be recorded (database unavailable, lease lost): the claim's lease
      // runs out and the next attempt reconciles with the provider before doing anything.
      this.logger.error(`execution of proposal ${claim.proposalId} could not be recorded: ${describe(error)}`);
      return 'lost';
    }
  }

  /** The companies whose rate window is still closed at `now`; those reopened are forgotten. */
  private companiesWaitingForWindow(now: Date): string[] {
    for (const [company, reopensAt] of this.closedWindows) {
      if (reopensAt <= now.getTime()) this.closedWindows.delete(company);
    }
    return [...this.closedWindows.keys()];
  }

  private async attempt(claim: ExecutionClaim): Promise<ExecutionOutcome> {
    // Claimed before a lane learnt that the company's window closed: it waits for the reopening
    // too, without a request that would only be refused.
    const now = this.ctx.clock.now();
    const reopensAt = this.closedWindows.get(claim.companyId);
    if (reopensAt !== undefined && reopensAt > now.getTime()) {
      const plan = { nextAttemptAt: new Date(reopensAt), error: WINDOW_CLOSED, bookingId: null };
      await this.unitOfWork.run((ports) => ports.executions.defer(claim, plan, now));
      return 'deferred';
    }
    const proposal = await this.proposals.findById(claim.companyId, claim.proposalId);
    if (!proposal || proposal.status !== 'APPROVED') {
      await this.unitOfWork.run((ports) =>
        ports.executions.markFailed(
          claim,
          `proposal is ${proposal ? proposal.status : 'gone'}: nothing to execute`,
          this.ctx.clock.now(),
        ),
      );
      return 'failed';
    }
    const duplicate = await this.reserveReceipt(proposal);
    if (duplicate) return this.fail(claim, proposal, null, duplicate, []);
    const twin = (await this.reserveSupplierInvoice(proposal)) ?? (await this.bookedTwinOf(proposal));
    if (twin) return this.fail(claim, proposal, null, twin, []);
    let connection: ProviderConnection;
    let provider: ProviderKind;
    try {
      const resolved = await this.connections.require(claim.companyId);
      connection = resolved.connection;
      provider = resolved.record.provider;
    } catch (error) {
      return this.fail(claim, proposal, null, failureOf(error), []);
    }
    const log = new ApiCallLog();
    let booking: BookingRef;
    let expense: ExpenseBooking;
    try {
      expense = await this.bookingOf(proposal, provider);
      booking = await this.connections.call(claim.companyId, () =>
        this.book(claim, proposal, expense, connection, log),
      );
    } catch (error) {
      return this.fail(claim, proposal, provider, failureOf(error), log.calls);
    }
    const readBack = await this.readBack(connection, expense, booking.bookingId, proposal, log);
    // Booked: a failure to record it is no failure of the booking. It propagates to execute()
    // ('lost'), and the next attempt finds the booking by its reference and records it then.
    return this.succeed(claim, proposal, provider, booking.bookingId, log, readBack);
  }

  /**
   * What to book: the proposal's lines, credited to the account for how it was paid (accounts
   * payable for a supplier invoice), and for an out-of-pocket expense the employee the company now
   * owes: the submitter's employee mapping. No mapping, or a company card without an account
   * (`payment_account_not_configured`), is refused for good: nothing a retry would change. The
   * company's voucher types come from its cached context (no provider call), when it was fetched
   * from the provider it is booked at.
   */
  private async bookingOf(proposal: Proposal, provider: ProviderKind): Promise<ExpenseBooking> {
    const settings = await this.settings.get(proposal.companyId);
    const context = await this.contexts.get(proposal.companyId);
    const creditAccount = creditAccountOf(proposal, settings.paymentAccounts);
    const employee = proposal.paidWith === 'employee' ? await this.employeeOf(proposal) : null;
    return {
      reference: proposal.id,
      kind: proposal.kind,
      paidWith: proposal.paidWith,
      vatTreatment: proposal.vatTreatment,
      lines: bookingLinesOf(proposal),
      supplier: proposal.supplier,
      invoiceNumber: proposal.invoiceNumber,
      dueDate: proposal.dueDate,
      employee,
      departmentId: proposal.departmentId,
      date: proposal.date,
      description: proposal.description,
      merchant: proposal.merchant,
      accountCode: proposal.accountCode,
      vatRate: proposal.vatRate,
      grossAmount: proposal.amount,
      currency: proposal.currency,
      amountNok: proposal.amountNok,
      paymentAccount: creditAccount,
      voucherTypes: context?.provider === provider ? context.voucherTypes : [],
    };
  }

  /** The submitter as the provider's employee, from the employee mapping (by user id, else by email). */
  private async employeeOf(proposal: Proposal): Promise<BookingEmployee> {
    const mapping =
      (await this.employees.find(proposal.companyId, proposal.submittedBy)) ??
      (proposal.submittedBy.includes('@')
        ? await this.employees.findByEmail(proposal.companyId, proposal.submittedBy)
        : null);
    if (!mapping) throw new EmployeeNotMapped(proposal.submittedBy);
    return { providerId: mapping.providerEmployeeId, name: mapping.email, email: mapping.email };
  }

  /**
   * Reads the booking's postings back from the provider's ledger and compares them with the planned
   * ones. Never fails the execution: the booking stands, and a failed read-back is recorded as such.
   */
  private async readBack(
    connection: ProviderConnection,
    expense: ExpenseBooking,
    bookingId: string,
    proposal: Proposal,
    log: ApiCallLog,
  ): Promise<PostingsReadBack> {
    const planned = plannedPostings(
      proposal,
      expense.paymentAccount,
      expense.employee ? { name: expense.employee.name, providerId: expense.employee.providerId } : null,
    );
    try {
      const booked = await this.connections.call(proposal.companyId, () =>
        this.provider.bookedPostings(connection, bookingId, {
          recorder: log,
          maxRateLimitWaitMs: this.options.rateLimitWaitMs,
        }),
      );
      return { planned, booked, differences: postingDifferences(planned, booked), error: null };
    } catch (error) {
      this.logger.warn(
        `the postings of booking ${bookingId} (proposal ${proposal.id}) could not be read back: ${describe(error)}`,
      );
      return {
        planned,
        booked: null,
        differences: [],
        error: `the postings could not be read back: ${describe(error)}`,
      };
    }
  }

  /**
   * For a supplier invoice, the failure to record when an earlier proposal of the same supplier and
   * invoice number is already EXECUTED: permanent, naming it — a supplier invoice is booked once.
   */
  private async bookedTwinOf(proposal: Proposal): Promise<Failure | null> {
    const { supplier, invoiceNumber } = proposal;
    if (proposal.kind !== 'supplier_invoice' || supplier === null || invoiceNumber === null) return null;
    const same = await this.proposals.findSupplierInvoices(
      proposal.companyId,
      supplier.organizationNumber,
      invoiceNumber,
    );
    const twin = same.find((p) => p.id !== proposal.id && p.status === 'EXECUTED');
    if (!twin) return null;
    const booked = twin.booking ? ` as ${twin.booking.provider} ${twin.booking.bookingId}` : '';
    return {
      message:
        `supplier invoice ${invoiceNumber} of ${supplier.organizationNumber} is already booked${booked} by proposal ` +
        `${twin.id}: not booked a second time; reject this proposal if it is a duplicate`,
      code: 'duplicate_supplier_invoice',
      transient: false,
      bookingId: null,
      mayBeBooked: false,
    };
  }

  /**
   * Reserves the proposal's receipt (its SHA-256) for it, so that no other proposal of the company
   * books the same receipt. Returns the failure to record when another proposal holds it: permanent
   * when it is booked, transient (try again later) while it is being booked. A reservation left by
   * a proposal since rejected is taken over. No receipt, nothing to reserve.
   */
  private async reserveReceipt(proposal: Proposal): Promise<Failure | null> {
    const sha256 = proposal.receipt?.sha256;
    if (!sha256) return null;
    const holder = await this.reserve(proposal, sha256);
    if (!holder) return null;
    if (holder.bookingId === null) {
      // The other execution may still fail and free the receipt: wait for its outcome.
      return {
        message: `the same receipt is being booked by proposal ${holder.proposalId}: waiting for its outcome`,
        code: 'duplicate_receipt',
        transient: true,
        bookingId: null,
        mayBeBooked: false,
      };
    }
    return {
      message:
        `the same receipt is already booked as ${holder.bookingId} by proposal ${holder.proposalId}: ` +
        'not booked a second time; reject this proposal if it is a duplicate',
      code: 'duplicate_receipt',
      transient: false,
      bookingId: null,
      mayBeBooked: false,
    };
  }

  /**
   * Reserves a supplier invoice's key for the proposal, as a receipt is reserved (reserveReceipt):
   * whichever of two twins reserves first is booked; the other waits while the first is being
   * booked, and is refused for good once it is, naming it. Not a supplier invoice: nothing to reserve.
   */
  private async reserveSupplierInvoice(proposal: Proposal): Promise<Failure | null> {
    const key = supplierInvoiceKeyOf(proposal);
    if (key === null) return null;
    const holder = await this.reserve(proposal, key);
    if (!holder) return null;
    const invoice = `supplier invoice ${proposal.invoiceNumber} of ${proposal.supplier?.organizationNumber}`;
    if (holder.bookingId === null) {
      return {
        message: `the same ${invoice} is being booked by proposal ${holder.proposalId}: waiting for its outcome`,
        code: 'duplicate_supplier_invoice',
        transient: true,
        bookingId: null,
        mayBeBooked: false,
      };
    }
    return {
      message:
        `${invoice} is already booked as ${holder.bookingId} by proposal ${holder.proposalId}: ` +
        'not booked a second time; reject this proposal if it is a duplicate',
      code: 'duplicate_supplier_invoice',
      transient: false,
      bookingId: null,
      mayBeBooked: false,
    };
  }

  /**
   * Reserves `key` (a receipt's SHA-256, a supplier invoice's key) in the company's booked
   * receipts for the proposal, in a unit of work of its own. Returns null when the proposal holds
   * it now, else the holder. A reservation left by a proposal since rejected is taken over.
   */
  private async reserve(proposal: Proposal, key: string): Promise<ReceiptHolder | null> {
    return this.unitOfWork.run(async (ports) => {
      const now = this.ctx.clock.now();
      const current = await ports.bookedReceipts.reserve(proposal.companyId, key, proposal.id, now);
      if (!current || current.bookingId !== null) return current;
      const holding = await ports.proposals.findById(proposal.companyId, current.proposalId);
      if (holding && holding.status !== 'REJECTED') return current;
      await ports.bookedReceipts.release(proposal.companyId, key, current.proposalId);
      return ports.bookedReceipts.reserve(proposal.companyId, key, proposal.id, now);
    });
  }

  /**
   * Reconciles first when an earlier attempt may have booked; books only when nothing is there.
   * A booking id the claim holds (created, its receipt not attached) is final: the receipt is
   * attached to it, and it is never booked again, even when a search by reference misses it. Without
   * one, a search that misses is asked once more after `reconcilePauseMs` before anything is booked
   * (a provider's search can miss a booking it has just committed).
   */
  private async book(
    claim: ExecutionClaim,
    proposal: Proposal,
    expense: ExpenseBooking,
    connection: ProviderConnection,
    log: ApiCallLog,
  ): Promise<BookingRef> {
    const options = { recorder: log, maxRateLimitWaitMs: this.options.rateLimitWaitMs };
    const receipt = await this.receiptOf(proposal);
    const find = () => this.provider.findBookingByReference(connection, proposal.id, proposal.date, options);
    if (claim.bookingId !== null) {
      const found = await find();
      const held: BookingRef = found ?? { bookingId: claim.bookingId, hasAttachment: false };
      if (receipt && !held.hasAttachment) {
        await this.provider.attachReceipt(connection, held.bookingId, receipt, options);
      }
      return { bookingId: held.bookingId, hasAttachment: held.hasAttachment || receipt !== null };
    }
    if (claim.attempt > 1) {
      let existing = await find();
      if (!existing) {
        await sleep(this.options.reconcilePauseMs);
        existing = await find();
      }
      if (existing) {
        if (receipt && !existing.hasAttachment) {
          await this.provider.attachReceipt(connection, existing.bookingId, receipt, options);
        }
        return { bookingId: existing.bookingId, hasAttachment: existing.hasAttachment || receipt !== null };
      }
    }
    return this.provider.bookExpense(connection, { ...expense, ...(receipt ? { receipt } : {}) }, options);
  }

  private async receiptOf(proposal: Proposal): Promise<Receipt | null> {
    if (!proposal.receipt) return null;
    const stored = await this.receipts.find(proposal.companyId, proposal.id);
    if (!stored) return null;
    return { filename: stored.filename, contentType: stored.contentType, bytes: stored.bytes };
  }

  private async succeed(
    claim: ExecutionClaim,
    proposal: Proposal,
    provider: ProviderKind,
    bookingId: string,
    log: ApiCallLog,
    readBack: PostingsReadBack,
  ): Promise<ExecutionOutcome> {
    // A pattern the execution observes may be strengthened by a review at the same moment: re-read.
    await retryOnConflict(() =>
      this.unitOfWork.run(async (ports) => {
        const current = await ports.proposals.findById(proposal.companyId, proposal.id);
        if (!current) throw new Error(`proposal ${proposal.id} disappeared during its execution`);
        const origin = { ...executorOrigin(current), provider };
        const executed = transitionProposal(
          current,
          { type: 'MarkExecuted', origin, bookingId, apiCalls: log.calls, readBack },
          this.ctx,
        );
        await ports.events.append(executed.events);
        await ports.proposals.update(executed.proposal, current.version);
        await this.observeAutoApproval(ports, executed.proposal, origin);
        await this.recordReceiptBooking(ports, executed.proposal, bookingId);
        await ports.executions.markExecuted(claim, bookingId, this.ctx.clock.now());
      }),
    );
    return 'executed';
  }

  /**
   * An executed auto-approval — one no one rejected during the execution delay — is one more amount
   * observation of the pattern it rested on, so that the amount rule learns what this merchant's
   * bills look like from auto-approvals too. Stored in the unit of work of the Executed event:
   * exactly once per execution. A pattern retired or changed meanwhile is left alone.
   */
  private async observeAutoApproval(ports: TransactionalPorts, executed: Proposal, origin: EventOrigin): Promise<void> {
    if (!executed.autoApproved) return;
    const pattern = await ports.patterns.findActiveByKey(executed.companyId, learningKeyOf(executed));
    if (!pattern) return;
    const observed = observeExecutedAutoApproval(pattern, executed, origin, this.ctx);
    await ports.patterns.save(observed.pattern, pattern.version);
    await ports.events.append(observed.events);
  }

  /** The booking made with the proposal's receipt and supplier invoice key, in the unit of work of `Executed`. */
  private async recordReceiptBooking(ports: TransactionalPorts, executed: Proposal, bookingId: string): Promise<void> {
    for (const key of reservedKeysOf(executed)) {
      await ports.bookedReceipts.recordBooking(executed.companyId, key, executed.id, bookingId, this.ctx.clock.now());
    }
  }

  private async fail(
    claim: ExecutionClaim,
    proposal: Proposal,
    provider: ProviderKind | null,
    failure: Failure,
    apiCalls: readonly ApiCall[],
  ): Promise<ExecutionOutcome> {
    const now = this.ctx.clock.now();
    if (failure.bookingId !== null && !failure.transient) {
      // Booked, but the receipt was refused for good: the booking stands; a human attaches the receipt.
      await retryOnConflict(() =>
        this.unitOfWork.run(async (ports) => {
          const current = await ports.proposals.findById(proposal.companyId, proposal.id);
          if (!current) throw new Error(`proposal ${proposal.id} disappeared during its execution`);
          const origin = { ...executorOrigin(current), provider: provider ?? 'unknown' };
          const executed = transitionProposal(
            current,
            { type: 'MarkExecuted', origin, bookingId: failure.bookingId!, apiCalls },
            this.ctx,
          );
          await ports.events.append(executed.events);
          await ports.proposals.update(executed.proposal, current.version);
          await this.observeAutoApproval(ports, executed.proposal, origin);
          await this.recordReceiptBooking(ports, executed.proposal, failure.bookingId!);
          await ports.notifier.notify([
            failedMessage(
              current,
              provider,
              failure.code,
              `booked as ${failure.bookingId}, but the receipt could not be attached: ${failure.message}`,
            ),
          ]);
          await ports.executions.markExecuted(claim, failure.bookingId!, now);
        }),
      );
      return 'executed';
    }
    if (failure.windowReopensInMs !== undefined) return this.defer(claim, proposal, failure, now);
    const report = !failure.transient || (claim.attempt >= this.options.maxTransientAttempts && !claim.failureReported);
    await this.unitOfWork.run(async (ports) => {
      if (report) {
        const current = await ports.proposals.findById(proposal.companyId, proposal.id);
        if (!current) throw new Error(`proposal ${proposal.id} disappeared during its execution`);
        const origin: EventOrigin = { ...executorOrigin(current), provider };
        const failed = transitionProposal(
          current,
          { type: 'RecordExecutionFailure', origin, message: failure.message, apiCalls },
          this.ctx,
        );
        await ports.events.append(failed.events);
        await ports.proposals.update(failed.proposal, current.version);
        await ports.notifier.notify([failedMessage(current, provider, failure.code, failure.message)]);
      }
      if (failure.transient) {
        const failureReported = claim.failureReported || report;
        await ports.executions.scheduleRetry(
          claim,
          {
            nextAttemptAt: new Date(now.getTime() + this.options.retryDelayMs(claim.attempt, failureReported)),
            error: failure.message,
            mayBeBooked: failure.mayBeBooked || failure.bookingId !== null,
            bookingId: failure.bookingId,
            failureReported,
          },
          now,
        );
      } else {
        await ports.executions.markFailed(claim, failure.message, now);
        // Nothing was booked: the receipt and the supplier invoice are free for another proposal (or
        // this one, approved again).
        for (const key of reservedKeysOf(proposal)) {
          await ports.bookedReceipts.release(proposal.companyId, key, proposal.id);
        }
      }
    });
    if (!failure.transient) return 'failed';
    this.logger.warn(
      `execution of proposal ${proposal.id} failed (attempt ${claim.attempt}), will retry: ${failure.message}`,
    );
    return 'retry';
  }

  /**
   * The company's rate window is closed: the execution is due again when it reopens, this claim not
   * counted as an attempt (ExecutionLedger.defer), with no ExecutionFailed and no notification. The
   * receipt and supplier invoice stay reserved for it, as for a retry.
   */
  private async defer(
    claim: ExecutionClaim,
    proposal: Proposal,
    failure: Failure,
    now: Date,
  ): Promise<ExecutionOutcome> {
    const nextAttemptAt = new Date(now.getTime() + (failure.windowReopensInMs ?? 0));
    this.closedWindows.set(
      claim.companyId,
      Math.max(nextAttemptAt.getTime(), this.closedWindows.get(claim.companyId) ?? 0),
    );
    await this.unitOfWork.run((ports) =>
      ports.executions.defer(claim, { nextAttemptAt, error: failure.message, bookingId: failure.bookingId }, now),
    );
    this.logger.debug(
      `execution of proposal ${proposal.id} deferred to ${nextAttemptAt.toISOString()}: ${failure.message}`,
    );
    return 'deferred';
  }
}

/** Why an execution claimed while its company's window was known to be closed was deferred. */
const WINDOW_CLOSED = "the company's rate window at the provider is closed";

/**
 * The key under which a supplier invoice is reserved in the booked receipts: the SHA-256 (hex, the
 * table's key format) of its supplier's organisation number and its invoice number as
 * normalizeInvoiceNumber tells invoices apart (`F 1001` and `f1001` are one invoice). Null for an
 * expense.
 */
function supplierInvoiceKeyOf(proposal: Pick<Proposal, 'kind' | 'supplier' | 'invoiceNumber'>): string | null {
  if (proposal.kind !== 'supplier_invoice' || proposal.supplier === null || proposal.invoiceNumber === null)
    return null;
  const invoiceNumber = normalizeInvoiceNumber(proposal.invoiceNumber);
  return createHash('sha256')
    .update(`supplier-invoice\n${proposal.supplier.organizationNumber}\n${invoiceNumber}`)
    .digest('hex');
}

/** What the proposal reserves in the booked receipts: its receipt, and a supplier invoice's key. */
function reservedKeysOf(proposal: Proposal): string[] {
  const invoiceKey = supplierInvoiceKeyOf(proposal);
  return [...(proposal.receipt ? [proposal.receipt.sha256] : []), ...(invoiceKey ? [invoiceKey] : [])];
}

/**
 * Who the execution events name: the reviewer who approved the proposal, or its submitter when it
 * was auto-approved — the person whose decision the booking carries out — through the channel the
 * proposal came from.
 */
function executorOrigin(proposal: Proposal): Omit<EventOrigin, 'provider'> {
  return { actor: proposal.approvedBy ?? proposal.submittedBy, channel: proposal.channel };
}

/** An out-of-pocket expense whose submitter is not in the company's employee mapping. */
export class EmployeeNotMapped extends DomainError {
  constructor(submittedBy: string) {
    super(
      'employee_not_mapped',
      `${submittedBy} paid out of pocket but is not in the company's employee mapping: map them to their employee at the provider, and then the execution can be tried again`,
    );
  }
}

/** Failures of the provider keep their reason; anything else (a bug, the database) is retried. */
function failureOf(error: unknown): Failure {
  if (error instanceof ProviderError) {
    const mayBeBooked = error.transient && (error.reason === 'unavailable' || error.reason === 'timeout');
    return {
      message: error.message,
      code: error.code,
      transient: error.transient,
      bookingId: error.bookingId ?? null,
      mayBeBooked,
      ...(error.windowClosed && { windowReopensInMs: (error.retryAfterSeconds ?? 1) * 1000 }),
    };
  }
  if (error instanceof DomainError) {
    // provider_not_connected, validation of the booking…: nothing a retry would change.
    return { message: error.message, code: error.code, transient: false, bookingId: null, mayBeBooked: false };
  }
  return { message: describe(error), code: 'internal_error', transient: true, bookingId: null, mayBeBooked: true };
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** `execution_failed` → the review channel (@app/notifications' ExecutionFailedPayload). */
function failedMessage(
  proposal: Proposal,
  provider: ProviderKind | null,
  code: string,
  message: string,
): OutboundMessage {
  return {
    companyId: proposal.companyId,
    target: 'review',
    kind: 'execution_failed',
    payload: {
      proposalId: proposal.id,
      correlationId: proposal.correlationId,
      merchant: proposal.merchant,
      amount: formatMoney(proposal.amount),
      currency: proposal.currency,
      date: proposal.date,
      accountCode: proposal.accountCode,
      vatRate: proposal.vatRate,
      ...(proposal.description !== null && { description: proposal.description }),
      provider: provider ?? 'none',
      errorCode: code,
      errorMessage: message,
    },
  };
}
