import { randomBytes } from 'node:crypto';
import type { EntityManager } from 'typeorm';
import { type Kms, type WrappedDek } from '@app/vault';
import { execute, select, toNumber } from '../shared/sql';
import { anchorMac } from './event-hash';

/** First key of the advisory lock under which the first chain key and the anchors are created. */
const EVENT_CHAIN_KEY_LOCK_NAMESPACE = 7305_0003;

const KEY_BYTES = 32;

/** A version of the chain key, unwrapped. */
export interface ChainKey {
  readonly version: number;
  readonly key: Buffer;
}

/** A company's unkeyed links as pinned when the chain was keyed. */
export interface ChainAnchor {
  readonly companyId: string;
  readonly chainIndex: number;
  readonly hash: string;
  readonly keyVersion: number;
  readonly mac: string;
}

export interface ChainKeyRewrap {
  /** Key versions examined. */
  readonly total: number;
  readonly rewrapped: number;
  readonly alreadyCurrent: number;
  /** Versions that could not be unwrapped or re-wrapped. */
  readonly failed: readonly number[];
}

/** The database holds keyed links or anchors but not the key that made them: it was removed. */
export class EventChainKeyMissing extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'EventChainKeyMissing';
  }
}

interface KeyRow {
  version: number;
  wrapped_key: Buffer;
  kek_id: string;
}

function wrappedOf(row: KeyRow): WrappedDek {
  return { wrapped: Buffer.from(row.wrapped_key), kekId: row.kek_id };
}

/**
 * The keys of the event hash chain (`event_chain_keys`): random 256-bit keys, stored only wrapped
 * by the KMS (KEK_SOURCE) with purpose `event-chain`, so that the database alone can neither read
 * nor replace them.
 *
 * The first key is created on first use (`current()`), under an advisory lock: in the same
 * transaction every company that already has unkeyed links (sealed before the chain was keyed)
 * gets its anchor, which pins those links by count and last hash under the new key. A database
 * that holds keyed links or anchors but no key has lost it; `current()` then refuses to create a
 * new one, since a new key would legitimise whatever was re-sealed meanwhile.
 *
 * Unwrapped keys are kept in memory for the life of this object (one per process): a version's key
 * never changes (a re-wrap only changes how it is stored), there are only ever a few versions, and
 * the sealer needs the current one every pass.
 */
export class EventChainKeys {
  private readonly unwrapped = new Map<number, Buffer>();
  private currentVersion: number | null = null;

  constructor(
    private readonly manager: EntityManager,
    private readonly kms: Kms,
  ) {}

  /** The key new links are sealed with: the newest version, created (with the anchors) if there is none. */
  async current(): Promise<ChainKey> {
    if (this.currentVersion === null) {
      const [row] = await select<{ version: number | null }>(
        this.manager,
        'SELECT max(version) AS version FROM event_chain_keys',
      );
      this.currentVersion = row.version ?? (await this.createFirst());
    }
    const key = await this.version(this.currentVersion);
    if (!key) throw new EventChainKeyMissing(`the event chain key version ${this.currentVersion} was removed`);
    return { version: this.currentVersion, key };
  }

  /** A version's key, or null when the database holds no such version. */
  async version(version: number): Promise<Buffer | null> {
    const cached = this.unwrapped.get(version);
    if (cached) return cached;
    const [row] = await select<KeyRow>(
      this.manager,
      'SELECT version, wrapped_key, kek_id FROM event_chain_keys WHERE version = $1',
      [version],
    );
    if (!row) return null;
    let key: Buffer;
    try {
      key = await this.kms.unwrap(wrappedOf(row), subjectOf(version), 'event-chain');
    } catch (error) {
      throw new Error(
        `cannot unwrap the event chain key version ${version} (wrapped under ${row.kek_id}): is KEK_SOURCE the ` +
          `one the service uses? (${(error as Error).message})`,
        { cause: error },
      );
    }
    this.unwrapped.set(version, key);
    return key;
  }

  /** Whether the chain is keyed at all: false only for a database whose links all predate keying. */
  async exist(): Promise<boolean> {
    const [row] = await select<{ keyed: boolean }>(
      this.manager,
      'SELECT EXISTS (SELECT 1 FROM event_chain_keys) AS keyed',
    );
    return row.keyed;
  }

  /** The company's anchor, or null. */
  async anchorOf(companyId: string): Promise<ChainAnchor | null> {
    const [row] = await select<{ chain_index: string; hash: string; key_version: number; mac: string }>(
      this.manager,
      'SELECT chain_index, hash, key_version, mac FROM event_chain_anchors WHERE company_id = $1',
      [companyId],
    );
    return row
      ? { companyId, chainIndex: toNumber(row.chain_index), hash: row.hash, keyVersion: row.key_version, mac: row.mac }
      : null;
  }

  /**
   * Re-wraps every key version under the KMS's current KEK (`kek rotate`); the keys themselves do
   * not change, so every link stays valid. A compare-and-set on the wrapped bytes keeps a
   * concurrent re-wrap from being overwritten.
   */
  async rewrap(): Promise<ChainKeyRewrap> {
    const kekId = await this.kms.currentKekId();
    const rows = await select<KeyRow>(
      this.manager,
      'SELECT version, wrapped_key, kek_id FROM event_chain_keys ORDER BY version',
    );
    let rewrapped = 0;
    let alreadyCurrent = 0;
    const failed: number[] = [];
    for (const row of rows) {
      if (row.kek_id === kekId) {
        alreadyCurrent++;
        continue;
      }
      let key: Buffer | undefined;
      try {
        key = await this.kms.unwrap(wrappedOf(row), subjectOf(row.version), 'event-chain');
        const next = await this.kms.wrap(key, subjectOf(row.version), 'event-chain');
        const { affected } = await execute(
          this.manager,
          `UPDATE event_chain_keys SET wrapped_key = $3, kek_id = $4, rotated_at = now()
            WHERE version = $1 AND wrapped_key = $2`,
          [row.version, Buffer.from(row.wrapped_key), Buffer.from(next.wrapped), next.kekId],
        );
        if (affected === 1) rewrapped++;
        else alreadyCurrent++;
      } catch {
        failed.push(row.version);
      } finally {
        key?.fill(0);
      }
    }
    return { total: rows.length, rewrapped, alreadyCurrent, failed };
  }

  /**
   * Creates key version 1 and anchors every company's unkeyed links, in one transaction under the
   * key lock; whoever comes second finds the key made. Returns the current version.
   */
  private async createFirst(): Promise<number> {
    return this.manager.transaction(async (tx) => {
      await tx.query('SELECT pg_advisory_xact_lock($1, 0)', [EVENT_CHAIN_KEY_LOCK_NAMESPACE]);
      const [existing] = await select<{ version: number | null }>(
        tx,
        'SELECT max(version) AS version FROM event_chain_keys',
      );
      if (existing.version !== null) return existing.version;
      const [traces] = await select<{ keyed: boolean; anchored: boolean }>(
        tx,
        `SELECT EXISTS (SELECT 1 FROM event_seals WHERE key_version > 0) AS keyed,
                EXISTS (SELECT 1 FROM event_chain_anchors) AS anchored`,
      );
      if (traces.keyed || traces.anchored) {
        throw new EventChainKeyMissing(
          'the event chain holds keyed links or anchors but no key: the key was removed from event_chain_keys. ' +
            'Restore it from a backup; a new key would make whatever was re-sealed since look intact',
        );
      }
      const key = randomBytes(KEY_BYTES);
      const wrapped = await this.kms.wrap(key, subjectOf(1), 'event-chain');
      await tx.query('INSERT INTO event_chain_keys (version, wrapped_key, kek_id) VALUES (1, $1, $2)', [
        Buffer.from(wrapped.wrapped),
        wrapped.kekId,
      ]);
      await this.anchorUnkeyedChains(tx, key);
      this.unwrapped.set(1, key);
      return 1;
    });
  }

  /** Every company's head seal (all unkeyed at this point), pinned under the key, in batches. */
  private async anchorUnkeyedChains(tx: EntityManager, key: Buffer): Promise<void> {
    const BATCH = 500;
    let after = '';
    for (;;) {
      const heads = await select<{ company_id: string; chain_index: string; hash: string }>(
        tx,
        `SELECT DISTINCT ON (company_id) company_id, chain_index, hash FROM event_seals
          WHERE company_id > $1 ORDER BY company_id, chain_index DESC LIMIT ${BATCH}`,
        [after],
      );
      if (heads.length === 0) return;
      const values: unknown[] = [];
      const tuples = heads.map((head) => {
        const chainIndex = toNumber(head.chain_index);
        values.push(head.company_id, chainIndex, head.hash, anchorMac(key, head.company_id, chainIndex, head.hash));
        const n = values.length;
        return `($${n - 3}, $${n - 2}::bigint, $${n - 1}, 1, $${n})`;
      });
      await tx.query(
        `INSERT INTO event_chain_anchors (company_id, chain_index, hash, key_version, mac) VALUES ${tuples.join(', ')}`,
        values,
      );
      if (heads.length < BATCH) return;
      after = heads[heads.length - 1].company_id;
    }
  }
}

function subjectOf(version: number): string {
  return `v${version}`;
}
