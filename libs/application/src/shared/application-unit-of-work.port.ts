import type { TransactionalPorts } from '@app/domain';
import type { IdempotencyStore } from '../idempotency/idempotency-store.port';
import type { ReceiptStore } from '../receipts/receipt-store.port';

/** The domain's transactional ports plus the application's own: receipt bytes and idempotency keys. */
export interface ApplicationTransactionalPorts extends TransactionalPorts {
  readonly receipts: ReceiptStore;
  readonly idempotency: IdempotencyStore;
}

/**
 * The domain's UnitOfWork widened with the stores only the application knows: runs `work` in one
 * transaction in which events, proposals, patterns, outbox rows, receipts and idempotency keys
 * commit together, or none does (the error is rethrown). Used where a use case writes one of the
 * application's stores together with the domain's (POST /proposals).
 */
export abstract class ApplicationUnitOfWork {
  abstract run<T>(work: (ports: ApplicationTransactionalPorts) => Promise<T>): Promise<T>;
}
