import { randomUUID } from 'node:crypto';
import type { DataSource, EntityManager } from 'typeorm';
import { ApplicationUnitOfWork, type ApplicationTransactionalPorts } from '@app/application';
import type { Clock, IdGenerator } from '@app/domain';
import { OutboxNotifier } from '@app/notifications';
import { TypeOrmEventStore } from '../event-store/typeorm-event-store';
import { TypeOrmOutboxRepository } from '../outbox/typeorm-outbox.repository';
import { TypeOrmPatternStore } from '../pattern/typeorm-pattern.store';
import { TypeOrmProposalRepository } from '../proposal/typeorm-proposal.repository';
import { TypeOrmReceiptStore } from '../receipts/typeorm-receipt.store';
import { TypeOrmIdempotencyStore } from './typeorm-idempotency.store';

const systemClock: Pick<Clock, 'now'> = { now: () => new Date() };
const randomIds: Pick<IdGenerator, 'next'> = { next: () => randomUUID() };

/**
 * The application's unit of work: like TypeOrmUnitOfWork, ONE database transaction with the
 * domain's ports bound to it, plus the receipt store and the idempotency keys, so that a submitted
 * proposal, its events, outbox rows, receipt bytes and recorded response commit together.
 */
export class TypeOrmApplicationUnitOfWork extends ApplicationUnitOfWork {
  constructor(
    private readonly dataSource: DataSource,
    private readonly clock: Pick<Clock, 'now'> = systemClock,
    private readonly ids: Pick<IdGenerator, 'next'> = randomIds,
  ) {
    super();
  }

  run<T>(work: (ports: ApplicationTransactionalPorts) => Promise<T>): Promise<T> {
    return this.dataSource.transaction((manager) => work(this.portsOf(manager)));
  }

  private portsOf(manager: EntityManager): ApplicationTransactionalPorts {
    return {
      events: new TypeOrmEventStore(manager),
      proposals: new TypeOrmProposalRepository(manager),
      patterns: new TypeOrmPatternStore(manager),
      notifier: new OutboxNotifier(new TypeOrmOutboxRepository(manager), this.clock, this.ids),
      receipts: new TypeOrmReceiptStore(manager),
      idempotency: new TypeOrmIdempotencyStore(manager),
    };
  }
}
