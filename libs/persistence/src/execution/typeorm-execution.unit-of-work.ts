import { randomUUID } from 'node:crypto';
import type { DataSource, EntityManager } from 'typeorm';
import { ExecutionUnitOfWork, type ExecutionTransactionalPorts } from '@app/application';
import type { Clock, IdGenerator } from '@app/domain';
import { OutboxNotifier } from '@app/notifications';
import { TypeOrmEventStore } from '../event-store/typeorm-event-store';
import { TypeOrmOutboxRepository } from '../outbox/typeorm-outbox.repository';
import { TypeOrmPatternStore } from '../pattern/typeorm-pattern.store';
import { TypeOrmProposalRepository } from '../proposal/typeorm-proposal.repository';
import { TypeOrmExecutionLedger } from './typeorm-execution.ledger';

const systemClock: Pick<Clock, 'now'> = { now: () => new Date() };
const randomIds: Pick<IdGenerator, 'next'> = { next: () => randomUUID() };

/** The executor's unit of work: the domain's ports and the execution ledger in ONE transaction. */
export class TypeOrmExecutionUnitOfWork extends ExecutionUnitOfWork {
  constructor(
    private readonly dataSource: DataSource,
    private readonly clock: Pick<Clock, 'now'> = systemClock,
    private readonly ids: Pick<IdGenerator, 'next'> = randomIds,
  ) {
    super();
  }

  run<T>(work: (ports: ExecutionTransactionalPorts) => Promise<T>): Promise<T> {
    return this.dataSource.transaction((manager) => work(this.portsOf(manager)));
  }

  private portsOf(manager: EntityManager): ExecutionTransactionalPorts {
    return {
      events: new TypeOrmEventStore(manager),
      proposals: new TypeOrmProposalRepository(manager),
      patterns: new TypeOrmPatternStore(manager),
      notifier: new OutboxNotifier(new TypeOrmOutboxRepository(manager), this.clock, this.ids),
      executions: new TypeOrmExecutionLedger(manager),
    };
  }
}
