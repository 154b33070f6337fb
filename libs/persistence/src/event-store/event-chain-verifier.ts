import { DataSource, type EntityManager } from 'typeorm';
import { EventChainVerification, type EventLinkCheck, type EventsVerification } from '@app/domain';
import { select, toNumber } from '../shared/sql';
import { eventColumnsOf, type EventRecord } from './event.entity';
import { eventFromRecord } from './event.mapper';
import type { EventChainKeys } from './event-chain-keys';
import { anchorMac, GENESIS_HASH, linkHash } from './event-hash';

/** The first place where a company's hash chain does not hold. */
export interface ChainBreak {
  readonly companyId: string;
  readonly eventId: string;
  /** The event's position; null when the sealed event no longer exists. */
  readonly position: number | null;
  /** The seal's place in the chain; null for an event left unsealed too long. */
  readonly chainIndex: number | null;
  readonly reason: string;
}

export interface ChainVerification {
  /** True when every checked chain is intact. */
  readonly ok: boolean;
  readonly companiesChecked: number;
  /** Sealed events checked, plus unsealed ones (pending or overdue). */
  readonly eventsChecked: number;
  /** The first break met, in (company id, chain) order; null when ok. */
  readonly firstBreak: ChainBreak | null;
  /** The first break of each broken company. */
  readonly breaks: readonly ChainBreak[];
  /** Events not sealed yet but recorded within the grace period: on their way, not a break. */
  readonly pending: number;
  /**
   * False while the database has no chain key yet (every link predates keying; the first sealer
   * pass creates the key): its links are then checked unkeyed, as anyone could recompute them.
   */
  readonly keyed: boolean;
}

/** A company's newest link: recorded outside the database, it pins the chain up to there. */
export interface ChainHead {
  readonly companyId: string;
  readonly chainIndex: number;
  readonly hash: string;
}

export interface VerifyOptions {
  /**
   * How long an event may stay unsealed (by its `recorded_at`, the database's clock) before that
   * is a break. Default 5 minutes.
   */
  readonly unsealedGraceMs?: number;
  /**
   * Called after each company's chain is checked (`verify`): how many companies are done of how
   * many there are, and how many events were checked so far.
   */
  readonly onProgress?: (progress: VerifyProgress) => void;
}

export interface VerifyProgress {
  readonly companyId: string;
  readonly companiesDone: number;
  readonly companiesTotal: number;
  readonly eventsChecked: number;
}

export const DEFAULT_UNSEALED_GRACE_MS = 5 * 60_000;

const BATCH = 1000;

/** A company's unkeyed links pinned by its anchor: how many, and why they do not hold (null when they do). */
interface AnchoredPrefix {
  readonly length: number;
  readonly broken: string | null;
}

/** A seal and its event's columns: all null when the event no longer exists (LEFT JOIN). */
type SealedRow = { [K in keyof EventRecord]: EventRecord[K] | null } & {
  chain_index: string;
  event_id: string;
  prev_hash: string;
  hash: string;
  key_version: number;
};

/** Where a walk is: the last link, and the company's unkeyed links seen so far (a prefix of the chain). */
interface WalkState {
  chainIndex: number;
  hash: string;
  keyVersion: number;
  /** The last unkeyed (version 0) link, if any: its chain index is the count of unkeyed links. */
  lastUnkeyed: { chainIndex: number; hash: string; eventId: string; position: number | null } | null;
  /** Whether the unkeyed links have been checked against the company's anchor. */
  anchorChecked: boolean;
}

/**
 * Checks each company's hash chain (or one company's), reading only:
 *
 * - walks the company's seals by `chain_index`, which must run 1, 2, 3, … without a gap (a removed
 *   seal), each `prev_hash` being the previous seal's `hash` (GENESIS_HASH at 1; else a seal was
 *   removed, inserted or reordered), each sealed event existing and belonging to the company, and
 *   each `hash` recomputed from the event row *as it is now* matching (else the event was altered)
 *   — with the chain key of the link's `key_version` (EventChainKeys), or unkeyed SHA-256 for the
 *   version-0 links sealed before the chain was keyed;
 * - key versions never go back along a chain, so unkeyed links can only be a prefix; once the
 *   database has a chain key, that prefix must be exactly the one anchored when the key was made
 *   (same count, same last hash, the anchor's MAC valid). Rewriting events and re-sealing them
 *   unkeyed, or extending or shortening the unkeyed prefix, is a break;
 * - then counts the company's events without a seal: those recorded longer ago than the grace
 *   period are a break (the sealer should have reached them: it is not running, or a seal was
 *   removed); younger ones are reported as `pending`.
 *
 * Reads in keyset batches, so memory stays bounded, and outside a transaction, so an embedded
 * database keeps serving writes meanwhile; a sealer running at the same time can shift the counts
 * by the events it seals, never produce a break. Removing a company's newest seals and altering
 * those events leaves a chain that verifies after they are sealed again: the triggers and the
 * production role's missing UPDATE and DELETE rights are what prevent that.
 *
 * Used by the CLI: `events verify [--company <id>] [--seal]` prints the breaks and exits non-zero.
 */
export class EventChainVerifier {
  constructor(
    private readonly manager: EntityManager,
    private readonly keys: EventChainKeys,
  ) {}

  async verify(companyId?: string, options: VerifyOptions = {}): Promise<ChainVerification> {
    const graceMs = options.unsealedGraceMs ?? DEFAULT_UNSEALED_GRACE_MS;
    const breaks: ChainBreak[] = [];
    let companies = 0;
    let events = 0;
    let pending = 0;
    const keyed = await this.keys.exist();
    const total = options.onProgress === undefined ? 0 : await this.companyCount(companyId);
    let done = 0;
    for await (const company of this.companies(companyId)) {
      const chain = await this.walkSeals(company, keyed);
      const unsealed = await this.unsealed(company, graceMs);
      const checked = chain.sealed + unsealed.pending + unsealed.overdue;
      done++;
      options.onProgress?.({
        companyId: company,
        companiesDone: done,
        companiesTotal: Math.max(total, done),
        eventsChecked: events + checked,
      });
      if (checked === 0) continue;
      companies++;
      events += checked;
      pending += unsealed.pending;
      const firstBreak = chain.firstBreak ?? unsealed.firstOverdue;
      if (firstBreak) breaks.push(firstBreak);
    }
    return {
      ok: breaks.length === 0,
      companiesChecked: companies,
      eventsChecked: events,
      firstBreak: breaks[0] ?? null,
      breaks,
      pending,
      keyed,
    };
  }

  /**
   * Checks only the events of one chain (`correlationId`: a proposal with its resubmissions, or a
   * pattern), as a page showing them needs — a handful of index lookups, whatever the size of the
   * company's chain. For each event:
   *
   * - its seal exists (else pending within the grace period, broken after it) and is in the
   *   company's chain;
   * - its link follows the seal before it (its `prev_hash` is that seal's `hash`, GENESIS_HASH at
   *   chain index 1; that seal exists; the key version does not go back), and its `hash`,
   *   recomputed from the event row as it is now with the chain key of its version, matches — as
   *   `verify` checks each link;
   * - the seal after it, when there is one, follows it (its `prev_hash` is this `hash`);
   * - an unkeyed link in a keyed database lies within the company's anchored prefix, whose anchor
   *   verifies under the chain key.
   *
   * and the chain's sequence runs 1, 2, 3, … without a gap (a removed event of the chain).
   *
   * What it does not check, and `verify` does: the links between and after these events (so a
   * removed or altered event of another chain, or seals removed at the head, go unseen here), that
   * every unkeyed link up to the anchor is intact, a removed last event of this chain, and the
   * company's unsealed events elsewhere. A keyed link cannot be recomputed without the chain key, so
   * an altered event of this chain is always caught.
   */
  async verifyEvents(
    companyId: string,
    correlationId: string,
    options: VerifyOptions = {},
  ): Promise<EventsVerification> {
    const graceMs = options.unsealedGraceMs ?? DEFAULT_UNSEALED_GRACE_MS;
    const keyed = await this.keys.exist();
    const rows = await select<
      SealedRow & {
        event_sequence: number;
        overdue: boolean;
        seal_company_id: string | null;
        before_hash: string | null;
        before_key_version: number | null;
        after_prev_hash: string | null;
      }
    >(
      this.manager,
      `SELECT ${eventColumnsOf('e')}, e.id AS event_id, e.sequence AS event_sequence,
              e.recorded_at < now() - make_interval(secs => $3::double precision / 1000) AS overdue,
              s.company_id AS seal_company_id, s.chain_index, s.prev_hash, s.hash, s.key_version,
              b.hash AS before_hash, b.key_version AS before_key_version, a.prev_hash AS after_prev_hash
         FROM events e
         LEFT JOIN event_seals s ON s.event_id = e.id
         LEFT JOIN event_seals b ON b.company_id = s.company_id AND b.chain_index = s.chain_index - 1
         LEFT JOIN event_seals a ON a.company_id = s.company_id AND a.chain_index = s.chain_index + 1
        WHERE e.company_id = $1 AND e.correlation_id = $2
        ORDER BY e.sequence, e.position`,
      [companyId, correlationId, graceMs],
    );
    const events: EventLinkCheck[] = [];
    let prefix: Promise<AnchoredPrefix> | null = null;
    const anchoredPrefix = () => (prefix ??= this.anchoredPrefix(companyId));
    let expected = 1;
    for (const row of rows) {
      const sequence = Number(row.event_sequence);
      for (; expected < sequence; expected++) {
        events.push({
          eventId: null,
          sequence: expected,
          chainIndex: null,
          state: 'broken',
          reason: `the chain has no event at sequence ${expected}: it was removed`,
        });
      }
      expected = Math.max(expected, sequence + 1);
      const check = (state: EventLinkCheck['state'], chainIndex: number | null, reason: string | null) =>
        events.push({ eventId: row.event_id, sequence, chainIndex, state, reason });
      if (row.chain_index === null) {
        if (row.overdue) {
          check(
            'broken',
            null,
            `the event is not sealed though recorded more than ${Math.round(graceMs / 1000)} s ago: the sealer is not running or its seal was removed`,
          );
        } else {
          check('pending', null, null);
        }
        continue;
      }
      const chainIndex = toNumber(row.chain_index);
      const reason = await this.checkLink(companyId, row, chainIndex, keyed, anchoredPrefix);
      check(reason === null ? 'verified' : 'broken', chainIndex, reason);
    }
    const count = (state: EventLinkCheck['state']) => events.filter((e) => e.state === state).length;
    return {
      ok: count('broken') === 0,
      events,
      verified: count('verified'),
      pending: count('pending'),
      broken: count('broken'),
      keyed,
    };
  }

  /** One sealed event's link against its neighbours (verifyEvents); null when it holds. */
  private async checkLink(
    companyId: string,
    row: SealedRow & {
      seal_company_id: string | null;
      before_hash: string | null;
      before_key_version: number | null;
      after_prev_hash: string | null;
    },
    chainIndex: number,
    keyed: boolean,
    anchoredPrefix: () => Promise<AnchoredPrefix>,
  ): Promise<string | null> {
    if (row.seal_company_id !== companyId) {
      return `the event is sealed in the chain of company ${row.seal_company_id}, not of its own company`;
    }
    if (chainIndex > 1 && row.before_hash === null) {
      return `the seal before it (chain index ${chainIndex - 1}) no longer exists: it was removed`;
    }
    const before: WalkState = {
      chainIndex: chainIndex - 1,
      hash: row.before_hash ?? GENESIS_HASH,
      keyVersion: row.before_key_version ?? 0,
      lastUnkeyed: null,
      anchorChecked: true,
    };
    const reason = await this.check(companyId, row, chainIndex, before);
    if (reason) return reason;
    if (row.after_prev_hash !== null && row.after_prev_hash !== row.hash) {
      return `the seal after it (chain index ${chainIndex + 1}) does not follow its hash: a seal was replaced`;
    }
    if (keyed && row.key_version === 0) {
      const prefix = await anchoredPrefix();
      if (prefix.broken) return prefix.broken;
      if (chainIndex > prefix.length) {
        return `the link is unkeyed but lies after the ${prefix.length} unkeyed link(s) anchored when the chain was keyed: it was sealed again without the chain key`;
      }
    }
    return null;
  }

  /** The company's anchored unkeyed prefix: how long it is, and why it does not hold (null when it does). */
  private async anchoredPrefix(companyId: string): Promise<AnchoredPrefix> {
    const anchor = await this.keys.anchorOf(companyId);
    if (anchor === null) return { length: 0, broken: null };
    const key = await this.keys.version(anchor.keyVersion);
    if (key === null || anchorMac(key, companyId, anchor.chainIndex, anchor.hash) !== anchor.mac) {
      return {
        length: anchor.chainIndex,
        broken: 'the anchor of the unkeyed links does not verify under the chain key: it was forged',
      };
    }
    if ((await this.hashAt(companyId, anchor.chainIndex)) !== anchor.hash) {
      return {
        length: anchor.chainIndex,
        broken: `the chain no longer holds the anchored hash at chain index ${anchor.chainIndex}: the unkeyed links were sealed again`,
      };
    }
    return { length: anchor.chainIndex, broken: null };
  }

  /**
   * Each company's newest link (or one company's): what `events verify --heads` keeps outside the
   * database, to check later that the chain still holds that hash at that place.
   */
  async heads(companyId?: string): Promise<ChainHead[]> {
    const rows = await select<{ company_id: string; chain_index: string; hash: string }>(
      this.manager,
      `SELECT DISTINCT ON (company_id) company_id, chain_index, hash FROM event_seals
        WHERE $1::text IS NULL OR company_id = $1 ORDER BY company_id, chain_index DESC`,
      [companyId ?? null],
    );
    return rows.map((row) => ({ companyId: row.company_id, chainIndex: toNumber(row.chain_index), hash: row.hash }));
  }

  /** The hash the company's chain holds at `chainIndex`, or null when it has no such link. */
  async hashAt(companyId: string, chainIndex: number): Promise<string | null> {
    const [row] = await select<{ hash: string }>(
      this.manager,
      'SELECT hash FROM event_seals WHERE company_id = $1 AND chain_index = $2',
      [companyId, chainIndex],
    );
    return row?.hash ?? null;
  }

  /** The companies to check, in id order. */
  /** How many companies `companies(only)` walks. */
  private async companyCount(only: string | undefined): Promise<number> {
    if (only !== undefined) return 1;
    const [row] = await select<{ n: number }>(this.manager, 'SELECT count(*)::int AS n FROM companies');
    return Number(row.n);
  }

  private async *companies(only: string | undefined): AsyncGenerator<string> {
    if (only !== undefined) {
      yield only;
      return;
    }
    let after = '';
    for (;;) {
      const rows = await select<{ id: string }>(
        this.manager,
        `SELECT id FROM companies WHERE id > $1 ORDER BY id LIMIT ${BATCH}`,
        [after],
      );
      for (const row of rows) yield row.id;
      if (rows.length < BATCH) return;
      after = rows[rows.length - 1].id;
    }
  }

  private async walkSeals(
    companyId: string,
    keyed: boolean,
  ): Promise<{ sealed: number; firstBreak: ChainBreak | null }> {
    let sealed = 0;
    let firstBreak: ChainBreak | null = null;
    const state: WalkState = {
      chainIndex: 0,
      hash: GENESIS_HASH,
      keyVersion: 0,
      lastUnkeyed: null,
      anchorChecked: !keyed,
    };
    for (;;) {
      const rows = await select<SealedRow>(
        this.manager,
        `SELECT s.chain_index, s.event_id, s.prev_hash, s.hash, s.key_version, ${eventColumnsOf('e')}
           FROM event_seals s LEFT JOIN events e ON e.id = s.event_id
          WHERE s.company_id = $1 AND s.chain_index > $2
          ORDER BY s.chain_index LIMIT ${BATCH}`,
        [companyId, state.chainIndex],
      );
      for (const row of rows) {
        sealed++;
        const chainIndex = toNumber(row.chain_index);
        const position = row.position === null ? null : toNumber(row.position);
        if (firstBreak === null && row.key_version > 0 && !state.anchorChecked) {
          firstBreak = await this.checkAnchor(companyId, state);
        }
        if (firstBreak === null) {
          const reason = await this.check(companyId, row, chainIndex, state);
          if (reason) firstBreak = { companyId, eventId: row.event_id, position, chainIndex, reason };
        }
        if (row.key_version === 0) {
          state.lastUnkeyed = { chainIndex, hash: row.hash, eventId: row.event_id, position };
        }
        state.chainIndex = chainIndex;
        state.hash = row.hash;
        state.keyVersion = Math.max(state.keyVersion, row.key_version);
      }
      if (rows.length < BATCH) break;
    }
    if (firstBreak === null && !state.anchorChecked) firstBreak = await this.checkAnchor(companyId, state);
    return { sealed, firstBreak };
  }

  private async check(
    companyId: string,
    row: SealedRow,
    chainIndex: number,
    previous: WalkState,
  ): Promise<string | null> {
    if (chainIndex !== previous.chainIndex + 1) {
      const missing =
        chainIndex === previous.chainIndex + 2
          ? `${previous.chainIndex + 1}`
          : `${previous.chainIndex + 1}–${chainIndex - 1}`;
      return `chain index ${chainIndex} follows ${previous.chainIndex}: the seal(s) ${missing} were removed`;
    }
    if (row.prev_hash !== previous.hash) {
      return `prev_hash ${row.prev_hash} is not the previous seal's hash ${previous.hash}: a seal was removed, inserted or reordered before it`;
    }
    if (row.key_version < previous.keyVersion) {
      return `the link has key version ${row.key_version} after links keyed with version ${previous.keyVersion}: it was sealed again without the current key`;
    }
    if (row.id === null) {
      return `the sealed event ${row.event_id} no longer exists: it was removed`;
    }
    if (row.company_id !== companyId) {
      return `the sealed event belongs to company ${row.company_id}, not to this chain's company`;
    }
    let key: Buffer | null = null;
    if (row.key_version > 0) {
      key = await this.keys.version(row.key_version);
      if (key === null) return `the link names the chain key version ${row.key_version}, which does not exist`;
    }
    let recomputed: string;
    try {
      recomputed = linkHash(key, row.prev_hash, eventFromRecord(row as EventRecord));
    } catch (error) {
      return `the event cannot be hashed: ${(error as Error).message}`;
    }
    return recomputed === row.hash ? null : 'the stored event does not match its seal: the event was altered';
  }

  /**
   * Once the database has a chain key, a company's unkeyed links must be exactly those its anchor
   * pinned when the key was made; a company without unkeyed links must have no anchor.
   */
  private async checkAnchor(companyId: string, state: WalkState): Promise<ChainBreak | null> {
    state.anchorChecked = true;
    const anchor = await this.keys.anchorOf(companyId);
    const unkeyed = state.lastUnkeyed;
    if (unkeyed === null) {
      if (anchor === null) return null;
      return {
        companyId,
        eventId: '-',
        position: null,
        chainIndex: anchor.chainIndex,
        reason: `the ${anchor.chainIndex} unkeyed link(s) anchored when the chain was keyed are gone: the chain was sealed again`,
      };
    }
    const broken = (reason: string): ChainBreak => ({
      companyId,
      eventId: unkeyed.eventId,
      position: unkeyed.position,
      chainIndex: unkeyed.chainIndex,
      reason,
    });
    if (anchor === null) {
      return broken(
        `the unkeyed links 1–${unkeyed.chainIndex} have no anchor: they were sealed without the chain key after it was made`,
      );
    }
    if (anchor.chainIndex !== unkeyed.chainIndex || anchor.hash !== unkeyed.hash) {
      return broken(
        `the unkeyed links end at chain index ${unkeyed.chainIndex}, but the anchor pinned ${anchor.chainIndex} with another hash: they were sealed again`,
      );
    }
    const key = await this.keys.version(anchor.keyVersion);
    if (key === null || anchorMac(key, companyId, anchor.chainIndex, anchor.hash) !== anchor.mac) {
      return broken('the anchor of the unkeyed links does not verify under the chain key: it was forged');
    }
    return null;
  }

  /** The company's events without a seal: how many are within the grace period, how many not, the first overdue. */
  private async unsealed(
    companyId: string,
    graceMs: number,
  ): Promise<{ pending: number; overdue: number; firstOverdue: ChainBreak | null }> {
    const unsealed = `FROM events e
      WHERE e.company_id = $1 AND NOT EXISTS (SELECT 1 FROM event_seals s WHERE s.event_id = e.id)`;
    const overdue = `e.recorded_at < now() - make_interval(secs => $2::double precision / 1000)`;
    const [counts] = await select<{ pending: string; overdue: string }>(
      this.manager,
      `SELECT count(*) FILTER (WHERE NOT (${overdue})) AS pending, count(*) FILTER (WHERE ${overdue}) AS overdue ${unsealed}`,
      [companyId, graceMs],
    );
    const result = {
      pending: toNumber(counts.pending),
      overdue: toNumber(counts.overdue),
      firstOverdue: null as ChainBreak | null,
    };
    if (result.overdue === 0) return result;
    const [first] = await select<{ id: string; position: string }>(
      this.manager,
      `SELECT e.id, e.position ${unsealed} AND ${overdue} ORDER BY e.position LIMIT 1`,
      [companyId, graceMs],
    );
    if (first) {
      result.firstOverdue = {
        companyId,
        eventId: first.id,
        position: toNumber(first.position),
        chainIndex: null,
        reason: `the event is not sealed though recorded more than ${Math.round(graceMs / 1000)} s ago: the sealer is not running (\`events verify --seal\` seals first) or its seal was removed`,
      };
    }
    return result;
  }
}

/** Verifies the hash chain of one company, or of all of them. */
export function verifyChain(
  source: DataSource | EntityManager,
  keys: EventChainKeys,
  companyId?: string,
  options?: VerifyOptions,
): Promise<ChainVerification> {
  return new EventChainVerifier(source instanceof DataSource ? source.manager : source, keys).verify(
    companyId,
    options,
  );
}

/** The EventChainVerification port over EventChainVerifier.verifyEvents (default grace period). */
export class TypeOrmEventChainVerification extends EventChainVerification {
  constructor(
    private readonly manager: EntityManager,
    private readonly keys: EventChainKeys,
  ) {
    super();
  }

  verifyChain(companyId: string, correlationId: string): Promise<EventsVerification> {
    return new EventChainVerifier(this.manager, this.keys).verifyEvents(companyId, correlationId);
  }
}
