import type { UnitOfWork } from '@app/domain';
import { ApplicationUnitOfWork, type ApplicationTransactionalPorts } from '../shared/application-unit-of-work.port';
import { InMemoryIdempotencyStore } from './in-memory-idempotency.store';
import { InMemoryReceiptStore } from './in-memory-receipt.store';

/**
 * ApplicationUnitOfWork over the domain's in-memory unit of work (which runs units one at a time and
 * rolls its stores back on failure) and the application's in-memory stores, rolled back with it.
 */
export class InMemoryApplicationUnitOfWork extends ApplicationUnitOfWork {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    readonly receipts = new InMemoryReceiptStore(),
    readonly idempotency = new InMemoryIdempotencyStore(),
  ) {
    super();
  }

  run<T>(work: (ports: ApplicationTransactionalPorts) => Promise<T>): Promise<T> {
    return this.unitOfWork.run(async (ports) => {
      const saved = [this.receipts.snapshot(), this.idempotency.snapshot()] as const;
      try {
        return await work({ ...ports, receipts: this.receipts, idempotency: this.idempotency });
      } catch (error) {
        this.receipts.restore(saved[0]);
        this.idempotency.restore(saved[1]);
        throw error;
      }
    });
  }
}
