import type { EntityManager } from 'typeorm';
import { SubmissionStore, type SubmissionKey, type SubmissionWrite } from '@app/application';
import { ConcurrencyConflict, type Clock, type IdGenerator } from '@app/domain';
import { outboxRowsOf } from '@app/notifications';
import { EVENT_INSERT_COLUMNS } from '../event-store/event.entity';
import { eventParameters } from '../event-store/event.mapper';
import { COMPLETED_KEY_COLUMNS, completedKeyParameters } from '../idempotency/typeorm-idempotency.store';
import { OUTBOX_INSERT_COLUMNS, outboxParameters } from '../outbox/typeorm-outbox.repository';
import { RECEIPT_COLUMNS, receiptParameters } from '../receipts/typeorm-receipt.store';
import { insertInto, isUniqueViolation } from '../shared/sql';
import { PROPOSAL_COLUMN_NAMES, proposalParameters } from './proposal.mapper';

/** Constraints whose violation means "a row of this new submission was stored by someone else first". */
const TAKEN = ['events_chain_position_key', 'events_pkey', 'proposals_pkey', 'receipts_pkey'];

/**
 * SubmissionStore as ONE statement: each table's INSERT a data-modifying CTE of it — the key with
 * its response, the events, the proposal, the receipt, the outbox rows — so the submission is one
 * round trip to PostgreSQL and, on the data source's manager, a transaction by itself (on a unit of
 * work's manager it joins that transaction). The rows and their values are those of the ports'
 * own adapters (TypeOrmEventStore, TypeOrmProposalRepository, …), whose column lists it shares.
 *
 * The key is a plain INSERT: a second request with the same key waits on the first's uncommitted
 * row, and once that commits, or whenever the key has a row, the primary key's violation aborts the
 * whole statement and `store` answers false with nothing stored (so does any other taken row when
 * a key was given). A replayed key thus costs one failed statement (PostgreSQL logs its unique
 * violation) before the unit of work answers it: retries are rare next to first requests, and the
 * first requests save six round trips. Foreign keys (a receipt's proposal) are checked at the end
 * of the statement, when every row of it is in.
 */
export class TypeOrmSubmissionStore extends SubmissionStore {
  constructor(
    private readonly manager: EntityManager,
    private readonly clock: Clock,
    private readonly ids: IdGenerator,
  ) {
    super();
  }

  async store(submission: SubmissionWrite, key?: SubmissionKey): Promise<boolean> {
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
    try {
      await this.manager.query(sql, parameters);
      return true;
    } catch (error) {
      // With a key, which of two taken rows the statement reports first is not defined: the key
      // and, for a retried resubmission, its event's chain position. Either way the ordinary path
      // decides, claiming the key before anything else.
      if (key && isUniqueViolation(error)) return false;
      if (TAKEN.some((constraint) => isUniqueViolation(error, constraint))) {
        throw new ConcurrencyConflict(
          `a row of proposal ${proposal.id} is already stored: its id, a receipt, or its chain position`,
        );
      }
      throw error;
    }
  }
}
