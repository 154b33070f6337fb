import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { ApplicationUnitOfWork, type ApplicationTransactionalPorts } from '@app/application';
import type { Clock, IdGenerator } from '@app/domain';
import { TypeOrmReceiptStore } from '../receipts/typeorm-receipt.store';
import { PreparedStatements } from '../shared/prepared-statements';
import { transactionalPorts } from '../unit-of-work/typeorm-unit-of-work';
import { CommitBatcher } from '../unit-of-work/commit-batcher';
import { insertsOnOwnConnection, WriteBehindTransaction } from '../unit-of-work/write-behind-transaction';
import { TypeOrmIdempotencyStore } from './typeorm-idempotency.store';

const systemClock: Pick<Clock, 'now'> = { now: () => new Date() };
const randomIds: Pick<IdGenerator, 'next'> = { next: () => randomUUID() };

/**
 * The application's unit of work: like TypeOrmUnitOfWork, ONE database transaction with the
 * domain's ports bound to it, plus the receipt store and the idempotency keys, so that a submitted
 * proposal, its events, outbox rows, receipt bytes and recorded response commit together (as one
 * statement when the unit only inserts: see WriteBehindTransaction). Units that only insert and
 * commit at the same moment share that statement (group commit: CommitBatcher).
 */
export class TypeOrmApplicationUnitOfWork extends ApplicationUnitOfWork {
  private readonly commits: CommitBatcher;

  constructor(
    private readonly dataSource: DataSource,
    private readonly clock: Pick<Clock, 'now'> = systemClock,
    private readonly ids: Pick<IdGenerator, 'next'> = randomIds,
    private readonly statements: PreparedStatements = PreparedStatements.disabled,
  ) {
    super();
    this.commits = new CommitBatcher(insertsOnOwnConnection(dataSource, statements));
  }

  run<T>(work: (ports: ApplicationTransactionalPorts) => Promise<T>): Promise<T> {
    return WriteBehindTransaction.run(
      this.dataSource,
      (tx) =>
        work({
          receipts: new TypeOrmReceiptStore(tx.manager, tx.writer),
          idempotency: new TypeOrmIdempotencyStore(tx.manager),
          // Spread last: V8 (Node 20) adds properties after a leading spread through a slow path.
          ...transactionalPorts(tx, this.clock, this.ids),
        }),
      this.statements,
      this.commits,
    );
  }
}
