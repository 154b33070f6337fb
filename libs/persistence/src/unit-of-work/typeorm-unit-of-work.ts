import { randomUUID } from 'node:crypto';
import type { DataSource, EntityManager } from 'typeorm';
import { TransactionalPorts, UnitOfWork, type Clock, type IdGenerator } from '@app/domain';
import { OutboxNotifier } from '@app/notifications';
import { TypeOrmEventStore } from '../event-store/typeorm-event-store';
import { TypeOrmOutboxRepository } from '../outbox/typeorm-outbox.repository';
import { TypeOrmPatternStore } from '../pattern/typeorm-pattern.store';
import { TypeOrmProposalRepository } from '../proposal/typeorm-proposal.repository';

/** Used when the application provides no Clock / IdGenerator (CLI, tests of persistence alone). */
const systemClock: Pick<Clock, 'now'> = { now: () => new Date() };
const randomIds: Pick<IdGenerator, 'next'> = { next: () => randomUUID() };

/**
 * Runs each unit of work in ONE database transaction and hands it EventStore, ProposalRepository,
 * PatternStore and Notifier instances bound to that transaction: events, the read model, patterns
 * and outbox rows commit together, or nothing does (the work's error is rethrown after the
 * rollback).
 *
 * The work must use only the ports it is handed while it runs: a query through another connection
 * would not see the uncommitted writes and, on embedded PGlite (one transaction at a time), would
 * wait for ever.
 */
export class TypeOrmUnitOfWork extends UnitOfWork {
  constructor(
    private readonly dataSource: DataSource,
    private readonly clock: Pick<Clock, 'now'> = systemClock,
    private readonly ids: Pick<IdGenerator, 'next'> = randomIds,
  ) {
    super();
  }

  run<T>(work: (ports: TransactionalPorts) => Promise<T>): Promise<T> {
    return this.dataSource.transaction((manager) => work(this.portsOf(manager)));
  }

  private portsOf(manager: EntityManager): TransactionalPorts {
    return {
      events: new TypeOrmEventStore(manager),
      proposals: new TypeOrmProposalRepository(manager),
      patterns: new TypeOrmPatternStore(manager),
      notifier: new OutboxNotifier(new TypeOrmOutboxRepository(manager), this.clock, this.ids),
    };
  }
}
