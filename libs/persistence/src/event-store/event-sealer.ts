import type { EntityManager } from 'typeorm';
import { select } from '../shared/sql';
import { EVENT_COLUMNS, type EventRecord } from './event.entity';
import { eventFromRecord } from './event.mapper';
import type { ChainKey, EventChainKeys } from './event-chain-keys';
import { GENESIS_HASH, keyedEventHash } from './event-hash';

/**
 * First key of the two-key advisory lock that serialises the sealing of one company's chain (the
 * second key is hashtext(company_id)). Two-key advisory locks live apart from one-key ones such as
 * the migration lock, so they cannot collide with it.
 */
export const EVENT_CHAIN_LOCK_NAMESPACE = 7305_0002;

export interface SealOptions {
  /** Only this company's events. Default: every company with unsealed events. */
  readonly companyId?: string;
  /**
   * Most events sealed per transaction (a company with more gets several). Default 100: a batch's
   * rows are parsed, hashed and bound on the event loop of the service that runs the sealer, and at
   * 1 000 one batch held it for 40–90 ms under load (in the open-loop benchmark, a second's
   * submissions' events), which requests in flight waited out; between batches it serves them.
   */
  readonly batchSize?: number;
}

export interface SealResult {
  /** Events sealed by this call. */
  readonly sealed: number;
  /** Companies that got at least one seal. */
  readonly companies: number;
}

const DEFAULT_BATCH = 100;
const MAX_BATCH = 10_000;

/**
 * `events e` with the condition that keeps its unsealed events (a FROM item and a WHERE clause, to
 * which the caller may add with AND), pushing its parameter onto `parameters`. Since a mark: the
 * events inserted by transactions from `since` on, each probed in `event_seals` by its id (LATERAL
 * with LIMIT is never turned into a join, so the probe cannot become a hash of every seal). Without
 * one (a process's first pass): every event, by an anti-join.
 */
function unsealedEvents(since: bigint | null, parameters: unknown[]): string {
  if (since === null) return 'events e WHERE NOT EXISTS (SELECT 1 FROM event_seals s WHERE s.event_id = e.id)';
  return `events e
    LEFT JOIN LATERAL (SELECT true AS sealed FROM event_seals s WHERE s.event_id = e.id LIMIT 1) seal ON true
    WHERE e.inserted_xid >= $${parameters.push(since.toString())}::xid8 AND seal.sealed IS NULL`;
}

/**
 * Chains committed events into each company's tamper-evident hash chain, after the fact: appending
 * an event (TypeOrmEventStore) takes no lock; the sealer then gives it its seal in `event_seals`:
 * `chain_index` = the company's head + 1, `prev_hash` = the head's hash (GENESIS_HASH for the
 * first), `key_version` = the current chain key's version and
 * `hash = HMAC-SHA256(chain key, prev_hash ‖ canonical JSON of the event as stored)` (EventChainKeys;
 * the first pass after the chain was keyed creates the key and anchors the unkeyed links).
 *
 * One company's batch is one short transaction that takes the company's chain lock
 * (pg_advisory_xact_lock), reads the head seal, selects the company's unsealed events in position
 * order and inserts their seals in one statement. Sealers in several instances therefore take
 * turns per company and never fork a chain, and appends are never blocked by them. The chain order
 * is the seal order: an event that commits late with a lower position than already sealed ones is
 * just sealed in a later batch.
 *
 * Finding unsealed events stays cheap as the table grows. Every event records the id of the
 * transaction that inserted it (`inserted_xid`, indexed). A pass first reads the oldest transaction
 * still running (`pg_snapshot_xmin`): any event the pass cannot see yet belongs to that transaction
 * or a younger one. Once a pass over every company is complete, the next pass looks only at events
 * with `inserted_xid` ≥ that id, however long ago their positions were taken; an open transaction
 * holds the mark back for as long as it runs, so a late commit is never skipped. The mark lives in
 * this object (one per process); the first pass of a process is a full anti-join on
 * `event_seals.event_id`. A pass limited to one company does not move the mark.
 *
 * After the first pass, each event since the mark is looked up in `event_seals` by its own id
 * (`unsealedSince`: a LATERAL probe of the unique index), so a pass costs what the events since the
 * mark cost. Written as `NOT EXISTS`, PostgreSQL chose by its estimates, and for a second's events
 * (hundreds at a steady rate) it hashed the whole of `event_seals` each pass: a pass then cost in
 * proportion to every seal ever made, 6 ms after 3 minutes of a soak and 43 ms after 11.
 *
 * Over a non-transactional manager (`dataSource.manager`): each batch opens its own transaction and
 * uses only that transaction's connection.
 */
export class EventSealer {
  /** Transaction id (xid8) from which on events may still be unsealed; null before the first full pass. */
  private lowWaterXid: bigint | null = null;

  constructor(
    private readonly manager: EntityManager,
    private readonly keys: EventChainKeys,
  ) {}

  async sealPending(options: SealOptions = {}): Promise<SealResult> {
    const batchSize = options.batchSize ?? DEFAULT_BATCH;
    if (!Number.isInteger(batchSize) || batchSize < 1 || batchSize > MAX_BATCH) {
      throw new RangeError(`batchSize must be an integer from 1 to ${MAX_BATCH} (got ${batchSize})`);
    }
    // Read before looking for events: whatever this pass cannot see was inserted by a transaction
    // still running now or started later, whose id is ≥ `oldestRunning`; the next pass looks there.
    const [{ xmin }] = await select<{ xmin: string }>(
      this.manager,
      'SELECT pg_snapshot_xmin(pg_current_snapshot())::text AS xmin',
    );
    const oldestRunning = BigInt(xmin);
    const since = this.lowWaterXid;
    // Outside any transaction: the first call may create the key, and unwrapping may ask a remote KMS.
    const key = await this.keys.current();
    const companies =
      options.companyId !== undefined ? [options.companyId] : await this.companiesWithUnsealedEvents(since);

    let sealed = 0;
    let touched = 0;
    for (const companyId of companies) {
      const count = await this.sealCompany(companyId, since, batchSize, key);
      sealed += count;
      if (count > 0) touched++;
    }
    // Only a complete pass over every company may move the mark; an error above leaves it be.
    if (options.companyId === undefined && (this.lowWaterXid === null || oldestRunning > this.lowWaterXid)) {
      this.lowWaterXid = oldestRunning;
    }
    return { sealed, companies: touched };
  }

  private async companiesWithUnsealedEvents(since: bigint | null): Promise<string[]> {
    const parameters: unknown[] = [];
    const rows = await select<{ company_id: string }>(
      this.manager,
      `SELECT DISTINCT e.company_id FROM ${unsealedEvents(since, parameters)} ORDER BY e.company_id`,
      parameters,
    );
    return rows.map((row) => row.company_id);
  }

  /** Seals the company's pending events batch by batch, one transaction each. */
  private async sealCompany(
    companyId: string,
    since: bigint | null,
    batchSize: number,
    key: ChainKey,
  ): Promise<number> {
    let total = 0;
    for (;;) {
      const count = await this.manager.transaction((tx) => this.sealBatch(tx, companyId, since, batchSize, key));
      total += count;
      if (count < batchSize) return total;
    }
  }

  private async sealBatch(
    tx: EntityManager,
    companyId: string,
    since: bigint | null,
    batchSize: number,
    key: ChainKey,
  ): Promise<number> {
    await tx.query('SELECT pg_advisory_xact_lock($1, hashtext($2))', [EVENT_CHAIN_LOCK_NAMESPACE, companyId]);
    // Read committed: these statements start after the lock was granted, so they see every seal of
    // the previous holder.
    const [head] = await select<{ chain_index: string; hash: string }>(
      tx,
      'SELECT chain_index, hash FROM event_seals WHERE company_id = $1 ORDER BY chain_index DESC LIMIT 1',
      [companyId],
    );
    const parameters: unknown[] = [companyId, batchSize];
    const events = await select<EventRecord>(
      tx,
      `SELECT ${EVENT_COLUMNS} FROM ${unsealedEvents(since, parameters)} AND e.company_id = $1
        ORDER BY e.position LIMIT $2`,
      parameters,
    );
    if (events.length === 0) return 0;

    let chainIndex = head ? BigInt(head.chain_index) : 0n;
    let prevHash = head?.hash ?? GENESIS_HASH;
    const values: unknown[] = [];
    const tuples: string[] = [];
    for (const event of events) {
      chainIndex++;
      // Hashed as read back from the row, which is what the verifier recomputes from.
      const hash = keyedEventHash(key.key, prevHash, eventFromRecord(event));
      const base = values.length;
      values.push(companyId, chainIndex.toString(), event.id, prevHash, hash, key.version);
      tuples.push(`($${base + 1}, $${base + 2}::bigint, $${base + 3}, $${base + 4}, $${base + 5}, $${base + 6})`);
      prevHash = hash;
    }
    await tx.query(
      `INSERT INTO event_seals (company_id, chain_index, event_id, prev_hash, hash, key_version) VALUES ${tuples.join(', ')}`,
      values,
    );
    return events.length;
  }
}
