import type { EventStore, Notifier, PatternStore, ProposalRepository } from '@app/domain';
import type { DailyCheckLedger } from '../daily-check/daily-check-runs.port';
import type { BookedReceipts } from '../execute-proposal/booked-receipts.port';
import type { ExecutionLedger } from '../execute-proposal/execution-ledger.port';
import type { IdempotencyStore } from '../idempotency/idempotency-store.port';
import type { ReceiptStore } from '../receipts/receipt-store.port';

/** Every port whose writes may have to commit together with another's, bound to one transaction. */
export interface TransactionalPorts {
  readonly events: EventStore;
  readonly proposals: ProposalRepository;
  readonly patterns: PatternStore;
  /** The outbox: messages commit with the events that cause them. */
  readonly notifier: Notifier;
  readonly receipts: ReceiptStore;
  readonly idempotency: IdempotencyStore;
  readonly executions: ExecutionLedger;
  /** Receipt → booking, so that one receipt is never booked twice. */
  readonly bookedReceipts: BookedReceipts;
  readonly dailyChecks: DailyCheckLedger;
}

/**
 * Runs `work` in ONE database transaction: everything it wrote through `ports` commits when it
 * resolves and nothing does when it throws (the error is rethrown). A use case that stores events,
 * updates the proposal and enqueues notifications does all of it through the ports it is handed
 * here; while it runs it touches the database through nothing else (embedded PostgreSQL runs one
 * transaction at a time, so a second connection would wait for this one for ever).
 */
export abstract class UnitOfWork {
  abstract run<T>(work: (ports: TransactionalPorts) => Promise<T>): Promise<T>;
}
