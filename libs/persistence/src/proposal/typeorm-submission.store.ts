import type { EntityManager } from 'typeorm';
import {
  SubmissionStore,
  type IdempotencyRecord,
  type RecordedUse,
  type SubmissionKey,
  type SubmissionOutcome,
  type SubmissionWrite,
} from '@app/application';
import { ConcurrencyConflict, type Clock, type IdGenerator } from '@app/domain';
import { outboxRowsOf } from '@app/notifications';
import { EVENT_INSERT_COLUMNS } from '../event-store/event.entity';
import { eventParameters } from '../event-store/event.mapper';
import { COMPLETED_KEY_COLUMNS, completedKeyParameters, recordedUse } from '../idempotency/typeorm-idempotency.store';
import { OUTBOX_INSERT_COLUMNS, outboxParameters } from '../outbox/typeorm-outbox.repository';
import { RECEIPT_COLUMNS, receiptParameters } from '../receipts/typeorm-receipt.store';
import { execute, insertInto, isUniqueViolation } from '../shared/sql';
import { PROPOSAL_COLUMN_NAMES, proposalParameters } from './proposal.mapper';

/**
 * SubmissionStore as ONE statement: each table's INSERT a data-modifying CTE of it — the key with
 * its response, the events, the proposal, the receipt, the outbox rows — so the submission is one
 * round trip to PostgreSQL and a transaction by itself. The rows and their values are those of the
 * ports' own adapters (TypeOrmEventStore, TypeOrmProposalRepository, …), whose column lists it
 * shares. Foreign keys (a receipt's proposal) are checked at the end of the statement, when every
 * row of it is in.
 *
 * The key is a plain INSERT: a second request with the same key waits on the first's uncommitted
 * row. Any unique violation aborts the whole statement, nothing stored; the key's row then says
 * why. A live row answers what it recorded (replay or conflict); an expired one is deleted and the
 * statement sent once more (taking the key over); no row means another of the submission's rows was
 * taken — its id, a receipt, a chain position — which is a ConcurrencyConflict. Which of two taken
 * rows PostgreSQL reports first is not defined, so the key is always looked at, whatever the
 * constraint. A replayed key thus costs one failed statement (PostgreSQL logs its unique violation)
 * and one read: retries are rare next to first requests.
 */
export class TypeOrmSubmissionStore extends SubmissionStore {
  constructor(
    private readonly manager: EntityManager,
    private readonly clock: Clock,
    private readonly ids: IdGenerator,
  ) {
    super();
  }

  async store(submission: SubmissionWrite, key?: SubmissionKey): Promise<SubmissionOutcome> {
    const [sql, parameters] = this.statementOf(submission, key);
    for (let attempt = 1; ; attempt++) {
      try {
        await this.manager.query(sql, parameters);
        return { outcome: 'stored' };
      } catch (error) {
        if (!isUniqueViolation(error)) throw error;
        const used = key ? await recordedUse(this.manager, key.record) : null;
        if (used) return used;
        if (key && attempt === 1 && (await this.dropExpired(key))) continue;
        throw new ConcurrencyConflict(
          `a row of proposal ${submission.proposal.id} is already stored: its id, a receipt, or its chain position`,
        );
      }
    }
  }

  recorded(record: IdempotencyRecord): Promise<RecordedUse | null> {
    return recordedUse(this.manager, record);
  }

  /** Deletes the key's row if it expired by the time of this use; says whether it did. */
  private async dropExpired({ record }: SubmissionKey): Promise<boolean> {
    const { companyId, actor, key } = record.scope;
    const { affected } = await execute(
      this.manager,
      `DELETE FROM idempotency_keys
        WHERE company_id = $1 AND actor = $2 AND idempotency_key = $3 AND expires_at <= $4`,
      [companyId, actor, key, record.createdAt],
    );
    return affected > 0;
  }

  private statementOf(submission: SubmissionWrite, key: SubmissionKey | undefined): [string, unknown[]] {
    const parameters: unknown[] = [];
    const insert = (table: string, columns: readonly string[], rows: unknown[][]): string => {
      const sql = insertInto(table, columns, rows.length, parameters.length + 1);
      parameters.push(...rows.flat());
      return sql;
    };
    const { events, proposal, receipt, messages } = submission;
    const writes: [string, string][] = [];
    if (key) {
      writes.push([
        'stored_key',
        insert('idempotency_keys', COMPLETED_KEY_COLUMNS, [completedKeyParameters(key.record, key.response)]),
      ]);
    }
    if (events.length > 0)
      writes.push(['stored_events', insert('events', EVENT_INSERT_COLUMNS, events.map(eventParameters))]);
    if (receipt) writes.push(['stored_receipt', insert('receipts', RECEIPT_COLUMNS, [receiptParameters(receipt)])]);
    if (messages.length > 0) {
      const rows = outboxRowsOf(messages, this.clock, this.ids).map(outboxParameters);
      writes.push([
        'stored_notices',
        `${insert('notification_outbox', OUTBOX_INSERT_COLUMNS, rows)} ON CONFLICT (id) DO NOTHING`,
      ]);
    }
    const last = insert('proposals', PROPOSAL_COLUMN_NAMES, [proposalParameters(proposal)]);
    const sql =
      writes.length > 0 ? `WITH ${writes.map(([name, write]) => `${name} AS (${write})`).join(', ')} ${last}` : last;
    return [sql, parameters];
  }
}
