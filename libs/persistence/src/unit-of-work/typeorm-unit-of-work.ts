import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { TransactionalPorts, UnitOfWork, type Clock, type IdGenerator } from '@app/domain';
import { OutboxNotifier } from '@app/notifications';
import { TypeOrmEventStore } from '../event-store/typeorm-event-store';
import { TypeOrmOutboxRepository } from '../outbox/typeorm-outbox.repository';
import { TypeOrmPatternStore } from '../pattern/typeorm-pattern.store';
import { TypeOrmProposalRepository } from '../proposal/typeorm-proposal.repository';
import { PreparedStatements } from '../shared/prepared-statements';
import { WriteBehindTransaction } from './write-behind-transaction';

/** Used when the application provides no Clock / IdGenerator (CLI, tests of persistence alone). */
const systemClock: Pick<Clock, 'now'> = { now: () => new Date() };
const randomIds: Pick<IdGenerator, 'next'> = { next: () => randomUUID() };

/**
 * Runs each unit of work in ONE database transaction and hands it EventStore, ProposalRepository,
 * PatternStore and Notifier instances bound to that transaction: events, the read model, patterns
 * and outbox rows commit together, or nothing does (the work's error is rethrown after the
 * rollback). The transaction is a WriteBehindTransaction: a unit that only inserts commits as one
 * statement.
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
    return WriteBehindTransaction.run(this.dataSource, (tx) => work(transactionalPorts(tx, this.clock, this.ids)));
  }
}

/** The domain's ports bound to one unit of work's transaction. */
export function transactionalPorts(
  { manager, writer }: WriteBehindTransaction,
  clock: Pick<Clock, 'now'>,
  ids: Pick<IdGenerator, 'next'>,
): TransactionalPorts {
  return {
    events: new TypeOrmEventStore(manager, writer),
    proposals: new TypeOrmProposalRepository(manager, writer),
    patterns: new TypeOrmPatternStore(manager, PreparedStatements.disabled, writer),
    notifier: new OutboxNotifier(new TypeOrmOutboxRepository(manager, writer), clock, ids),
  };
}
