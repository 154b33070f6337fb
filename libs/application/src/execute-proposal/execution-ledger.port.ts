/**
 * One claimed execution: a worker holds it until `leaseUntil`, and only the holder of `token` may
 * record its outcome. `attempt` counts every claim, this one included: an attempt after the first
 * may follow one that reached the provider (a crash, a timeout), so it reconciles first.
 */
export interface ExecutionClaim {
  readonly proposalId: string;
  readonly companyId: string;
  readonly attempt: number;
  /** A booking the provider is known to hold (created, receipt not yet attached), or null. */
  readonly bookingId: string | null;
  /** Whether the repeated transient failure was already reported (ExecutionFailed + notification). */
  readonly failureReported: boolean;
  readonly token: string;
  readonly leaseUntil: Date;
}

/** When to try again after a transient failure, and what is known meanwhile. */
export interface RetryPlan {
  readonly nextAttemptAt: Date;
  readonly error: string;
  /**
   * The provider may hold the booking (the outcome of a create is unknown, or it was created and the
   * receipt is still missing): a reject is refused until an attempt has reconciled it.
   */
  readonly mayBeBooked: boolean;
  readonly bookingId: string | null;
  readonly failureReported: boolean;
}

/** When to try again after a closed rate window, and what the deferred attempt learnt. */
export interface DeferPlan {
  readonly nextAttemptAt: Date;
  readonly error: string;
  /** A booking the attempt created before the window closed (its receipt not attached), or null. */
  readonly bookingId: string | null;
}

/**
 * The executor's queue of approved proposals due for execution (`executeAfter` passed).
 *
 * An approved proposal is in the queue from its approval on, due at its executeAfter. `claimDue`
 * runs in its own short transaction: it takes due ones with `SELECT … FOR UPDATE SKIP LOCKED` — the execution row and the proposal row — so that two
 * workers never take the same proposal, and marks them in flight (durably, before any provider
 * call) with a lease. While an execution is in flight, or may have booked, the proposal cannot be
 * rejected (the reject is refused with 409 invalid_transition). A claim whose lease ran out (its
 * worker died) is due again.
 */
export abstract class ExecutionQueue {
  /**
   * Claims up to `limit` due executions, none of a company in `excluding` (those whose rate window
   * at the provider is closed: their executions stay due, for when it reopens).
   */
  abstract claimDue(
    now: Date,
    limit: number,
    leaseUntil: Date,
    worker: string,
    excluding?: readonly string[],
  ): Promise<ExecutionClaim[]>;
  /**
   * Extends the leases of claims still held (in flight with their token) to `leaseUntil`, so that
   * a lease can be short — a dead worker's claim is taken over within seconds — while a live
   * worker keeps its claims however long the provider takes. Returns how many were still held.
   */
  abstract renew(claims: readonly ExecutionClaim[], leaseUntil: Date): Promise<number>;
}

/**
 * Records an execution's outcome inside the unit of work that stores the proposal's event, so
 * that the state of the execution and the event commit together. Each method refuses
 * (ConcurrencyConflict) a claim that is no longer held by its token.
 */
export abstract class ExecutionLedger {
  abstract markExecuted(claim: ExecutionClaim, bookingId: string, now: Date): Promise<void>;
  /** A permanent failure: no automatic retry; the proposal stays APPROVED and may be rejected. */
  abstract markFailed(claim: ExecutionClaim, error: string, now: Date): Promise<void>;
  abstract scheduleRetry(claim: ExecutionClaim, plan: RetryPlan, now: Date): Promise<void>;
  /**
   * Puts the claim back, due at `plan.nextAttemptAt`, without counting it as an attempt (`attempts`
   * goes back to what it was before the claim): the company's rate window at the provider was
   * closed, and nothing the attempt sent can have booked unseen — every request had a known outcome,
   * and a booking it created is `plan.bookingId`. A booking known before, and `mayBeBooked`, are
   * kept (a booking now known sets it); the failure count and its report are left as they were.
   */
  abstract defer(claim: ExecutionClaim, plan: DeferPlan, now: Date): Promise<void>;
}
