import type { DataSource, EntityManager } from 'typeorm';
import { UnitOfWork, type TransactionalPorts } from '@app/application';
import { Clock, IdGenerator } from '@app/domain';
import { OutboxNotifier } from '@app/notifications';
import { TypeOrmDailyCheckLedger } from '../daily-check/typeorm-daily-check-runs';
import { TypeOrmEventStore } from '../event-store/typeorm-event-store';
import { TypeOrmBookedReceipts } from '../execution/typeorm-booked-receipts';
import { TypeOrmExecutionLedger } from '../execution/typeorm-execution.ledger';
import { TypeOrmIdempotencyStore } from '../idempotency/typeorm-idempotency.store';
import { TypeOrmOutboxRepository } from '../outbox/typeorm-outbox.repository';
import { TypeOrmPatternStore } from '../pattern/typeorm-pattern.store';
import { TypeOrmProposalRepository } from '../proposal/typeorm-proposal.repository';
import { TypeOrmReceiptStore } from '../receipts/typeorm-receipt.store';

/**
 * Runs each unit of work in ONE database transaction (BEGIN … COMMIT, READ COMMITTED) and hands it
 * every transactional port bound to that transaction: events, the proposals' read model, patterns,
 * outbox rows, receipts, idempotency keys, booked receipts and the executor's and daily check's ledgers commit
 * together, or nothing does (the work's error is rethrown after the rollback). Each port call is
 * sent when it is made, so the unit reads its own writes and a failed write fails at once.
 */
export class TypeOrmUnitOfWork extends UnitOfWork {
  constructor(
    private readonly dataSource: DataSource,
    private readonly clock: Clock,
    private readonly ids: IdGenerator,
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
      receipts: new TypeOrmReceiptStore(manager),
      idempotency: new TypeOrmIdempotencyStore(manager),
      executions: new TypeOrmExecutionLedger(manager),
      bookedReceipts: new TypeOrmBookedReceipts(manager),
      dailyChecks: new TypeOrmDailyCheckLedger(manager),
    };
  }
}
