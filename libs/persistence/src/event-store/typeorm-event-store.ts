import type { EntityManager } from 'typeorm';
import { DomainEvent, EventQuery, EventStore, Page } from '@app/domain';
import { assertLimit, decodeCursor, toPage } from '../shared/keyset-cursor';
import { conflictOnUniqueViolation, insertInto, select } from '../shared/sql';
import { EVENT_COLUMNS, EVENT_INSERT_COLUMNS, type EventRecord } from './event.entity';
import { eventFromRecord, eventParameters } from './event.mapper';

/** Constraints whose violation means "someone else stored this event or this position first". */
const POSITION_TAKEN = ['events_chain_position_key', 'events_pkey'];

/**
 * The EventStore over the append-only `events` table.
 *
 * - Positions: UNIQUE (correlation_id, sequence). A second event at a taken position violates it
 *   and the whole batch fails with ConcurrencyConflict; nothing is silently dropped. Of two
 *   concurrent transactions at one position, the second waits on the first's uncommitted row and
 *   fails once the first commits.
 * - Appending takes no lock and reads nothing: it is one multi-row INSERT, so writes of one company
 *   run in parallel. The tamper-evident hash chain is added afterwards by EventSealer, which
 *   chains committed events into `event_seals`.
 * - Immutability is the database's job (triggers, and a role without UPDATE/DELETE in production).
 *
 * Constructed over an EntityManager: `dataSource.manager` for standalone use (each append is its
 * own statement, hence atomic), or a unit of work's transactional manager (the append joins it).
 */
export class TypeOrmEventStore extends EventStore {
  constructor(private readonly manager: EntityManager) {
    super();
  }

  async append(events: readonly DomainEvent[]): Promise<void> {
    if (events.length === 0) return;
    // One multi-row INSERT: the batch is atomic, and rows take their positions in batch order.
    await conflictOnUniqueViolation(
      POSITION_TAKEN,
      () => conflictMessage(events),
      () =>
        this.manager.query(insertInto('events', EVENT_INSERT_COLUMNS, events.length), events.flatMap(eventParameters)),
    );
  }

  async readChain(companyId: string, correlationId: string): Promise<DomainEvent[]> {
    const rows = await select<EventRecord>(
      this.manager,
      `SELECT ${EVENT_COLUMNS} FROM events WHERE company_id = $1 AND correlation_id = $2 ORDER BY sequence`,
      [companyId, correlationId],
    );
    return rows.map(eventFromRecord);
  }

  async list(companyId: string, query: EventQuery): Promise<Page<DomainEvent>> {
    assertLimit(query.limit);
    const parameters: unknown[] = [companyId];
    const param = (value: unknown): string => {
      parameters.push(value);
      return `$${parameters.length}`;
    };
    const type = query.type === undefined ? undefined : param(query.type);
    const after = query.cursor ? decodeCursor(query.cursor, ['number'] as const)[0] : undefined;
    // A company's history, or one type of it, and nothing else: the pages a consumer catching up
    // reads. Stated on the company's own index — `(company_id, position)`, or `(company_id, type,
    // position)` — as a range and a row comparison, ordered by that index's columns, so the plan is
    // a range scan of the page itself. With `company_id = $1` (and `type = $2`) ordered by position
    // alone, the planner may walk the global `position` index instead, filtering on the company:
    // through every later event of every other company when the cursor is near this one's latest.
    // The range (`>=` and `<=` the value) is the equality; an equality would make the ORDER BY's
    // first column redundant to the planner and the global walk possible again.
    const keyset = !query.status && !query.correlationId && !query.from && !query.to;
    const [ownColumn, ownValue] = type === undefined ? ['e.company_id', '$1'] : ['e.type', type];
    const where = keyset && type === undefined ? [] : ['e.company_id = $1'];
    if (type !== undefined) where.push(keyset ? `e.type >= ${type} AND e.type <= ${type}` : `e.type = ${type}`);
    if (keyset && type === undefined) where.push('e.company_id >= $1 AND e.company_id <= $1');
    if (query.correlationId) where.push(`e.correlation_id = ${param(query.correlationId)}`);
    const window: string[] = [];
    if (query.from) window.push(`occurred_at >= ${param(query.from)}`);
    if (query.to) window.push(`occurred_at < ${param(query.to)}`);
    where.push(...window.map((condition) => `e.${condition}`));
    if (query.from) {
      // Where the window starts in the append order: its events' first position, read from the
      // (company_id, occurred_at, position) index alone (OFFSET 0 keeps PostgreSQL from answering
      // the min by walking the position index from the start). Implied by the window, it starts
      // the walk in position order there; without it the planner walks from the company's first
      // event, as if the window's events were spread evenly over the history: 0.4 s for a day a
      // third of the way into 1 M events, 5 ms with it. The cost is the window's size in index
      // entries, paid for each page.
      where.push(`e.position >= (SELECT min(position) FROM (
        SELECT position FROM events WHERE company_id = $1 AND ${window.join(' AND ')} OFFSET 0) w)`);
    }
    if (query.status) {
      // The events that left a proposal in `status`, kept only while no later event of the same
      // proposal moved it elsewhere: "the proposal is *currently* in that status". Its head in
      // `proposal_heads` (kept by a trigger on events) says so too — implied by the NOT EXISTS —
      // and lets the plan start from the few proposals in a queue's status, through the heads'
      // (company_id, status) index, instead of walking every event that ever had it.
      const status = param(query.status);
      where.push(`e.status = ${status} AND e.proposal_id IS NOT NULL AND EXISTS (
        SELECT 1 FROM proposal_heads head
         WHERE head.company_id = e.company_id AND head.proposal_id = e.proposal_id AND head.status = ${status})
        AND NOT EXISTS (
        SELECT 1 FROM events later
         WHERE later.company_id = e.company_id AND later.proposal_id = e.proposal_id
           AND later.sequence > e.sequence AND later.status IS NOT NULL AND later.status <> ${status})`);
    }
    if (after !== undefined) {
      where.push(
        keyset ? `(${ownColumn}, e.position) > (${ownValue}, ${param(after)})` : `e.position > ${param(after)}`,
      );
    }
    const order = keyset ? `${ownColumn}, e.position` : 'e.position';
    const rows = await select<EventRecord>(
      this.manager,
      `SELECT ${EVENT_COLUMNS} FROM events e
        WHERE ${where.join(' AND ')} ORDER BY ${order} LIMIT ${param(query.limit + 1)}`,
      parameters,
    );
    return toPage(rows, query.limit, eventFromRecord, (row) => [Number(row.position)]);
  }
}

function conflictMessage(events: readonly DomainEvent[]): string {
  const positions = events.map((event) => `${event.correlationId}#${event.sequence}`).join(', ');
  return `an event is already stored at one of the positions ${positions}: the chain changed meanwhile`;
}
