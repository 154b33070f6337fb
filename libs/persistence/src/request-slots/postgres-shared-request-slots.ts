import { createHash } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { SharedRequestSlots, SharedSlotUnavailable, type SlotHold, type SlotPriority } from '@app/providers';

export interface PostgresSharedRequestSlotsOptions {
  /** Longest wait of an urgent request for the slot (and for the database), ms. Default 30 000. */
  readonly waitMs?: number;
  /** `application_name` of its connections (seen in `pg_stat_activity`). */
  readonly applicationName?: string;
}

interface PgClient {
  query(sql: string, parameters?: unknown[]): Promise<{ rows: Array<Record<string, unknown>> }>;
  on(event: 'error', listener: (error: Error) => void): void;
  release(destroy?: boolean): void;
}
interface PgPool {
  connect(): Promise<PgClient>;
  end(): Promise<void>;
}
interface PostgresDriverInternals {
  options: { extra?: Record<string, unknown> } & Record<string, unknown>;
  createPool(options: object, credentials: object): Promise<PgPool>;
}

/** The advisory-lock class (first key) of every request slot: "RS" + 1. */
const LOCK_CLASS = 0x5253_0001;

/** A 32-bit key of `text`, for the second half of a two-key advisory lock. */
function lockKey(text: string): number {
  return createHash('sha256').update(text).digest().readInt32BE(0);
}

/** One name's session: a dedicated connection, used by one holder of this process at a time. */
class Lane {
  private tail: Promise<void> = Promise.resolve();
  client: PgClient | undefined;
  readonly slot: number;
  readonly gate: number;

  constructor(name: string) {
    this.slot = lockKey(`${name}:slot`);
    this.gate = lockKey(`${name}:gate`);
  }

  /** This process's turn at the lane (FIFO): what ends it. */
  async turn(): Promise<() => void> {
    let done!: () => void;
    const previous = this.tail;
    this.tail = new Promise<void>((resolve) => (done = resolve));
    await previous;
    return done;
  }

  /** Ends the session (and so every advisory lock it holds). */
  discard(): void {
    const client = this.client;
    this.client = undefined;
    client?.release(true);
  }
}

/**
 * `SharedRequestSlots` on PostgreSQL session-level advisory locks, one dedicated connection per
 * slot name (outside the service's pools). Two locks per name:
 *
 * - the *slot*, exclusive: held by the urgent request that is sending;
 * - the *gate*: every urgent request holds it shared from the moment it asks until it has sent,
 *   background work takes it exclusive with `pg_try_advisory_lock`, so it gets in only when no
 *   booking anywhere waits or sends, and is itself the slot for background work.
 *
 * An urgent request takes both in one statement (`pg_advisory_lock_shared` then `pg_advisory_lock`,
 * PostgreSQL's lock queue keeping arrival order) and gives both back in one: two round trips per
 * request. A background one tries the gate (one round trip, also when refused) and unlocks it (one).
 * `lock_timeout` bounds the wait and `query_timeout` a database that stopped answering; on any
 * error the connection is ended — so a lock that might have been granted meanwhile dies with it —
 * and the caller gets `SharedSlotUnavailable`. A process that dies loses its locks with its session.
 */
export class PostgresSharedRequestSlots extends SharedRequestSlots {
  private readonly waitMs: number;
  private readonly applicationName: string;
  private readonly lanes = new Map<string, Lane>();
  private pool: Promise<PgPool> | undefined;
  private closed = false;

  constructor(
    private readonly dataSource: DataSource,
    options: PostgresSharedRequestSlotsOptions = {},
  ) {
    super();
    this.waitMs = options.waitMs ?? 30_000;
    this.applicationName = options.applicationName ?? 'accounting-api request slots';
    if (!Number.isInteger(this.waitMs) || this.waitMs < 1) throw new RangeError('waitMs must be an integer ≥ 1');
  }

  async acquire(name: string, priority: SlotPriority): Promise<SlotHold | null> {
    let lane = this.lanes.get(name);
    if (!lane) {
      lane = new Lane(name);
      this.lanes.set(name, lane);
    }
    const endTurn = await lane.turn();
    const urgent = priority === 'urgent';
    try {
      const client = await this.clientOf(lane);
      if (urgent) {
        await client.query('SELECT pg_advisory_lock_shared($1, $2), pg_advisory_lock($1, $3)', [
          LOCK_CLASS,
          lane.gate,
          lane.slot,
        ]);
      } else {
        const { rows } = await client.query('SELECT pg_try_advisory_lock($1, $2) AS taken', [LOCK_CLASS, lane.gate]);
        if (rows[0]?.taken !== true) {
          endTurn();
          return null;
        }
      }
    } catch (error) {
      lane.discard();
      endTurn();
      throw new SharedSlotUnavailable(`the shared request slot ${name} could not be taken: ${describe(error)}`, {
        cause: error,
      });
    }
    const held = lane;
    let released = false;
    return {
      release: async () => {
        if (released) return;
        released = true;
        try {
          const client = held.client;
          if (client) {
            await client.query(
              urgent
                ? 'SELECT pg_advisory_unlock($1, $3), pg_advisory_unlock_shared($1, $2)'
                : 'SELECT pg_advisory_unlock($1, $2)',
              urgent ? [LOCK_CLASS, held.gate, held.slot] : [LOCK_CLASS, held.gate],
            );
          }
        } catch {
          // Ending the session gives the locks back all the same.
          held.discard();
        } finally {
          endTurn();
        }
      },
    };
  }

  /** Ends every session (and so every lock) and the connections' pool. */
  async close(): Promise<void> {
    this.closed = true;
    for (const lane of this.lanes.values()) lane.discard();
    const pool = this.pool;
    this.pool = undefined;
    if (pool) await pool.then((p) => p.end()).catch(() => undefined);
  }

  private async clientOf(lane: Lane): Promise<PgClient> {
    if (this.closed) throw new Error('the request slots are closed');
    if (lane.client) return lane.client;
    const client = await (await this.connections()).connect();
    client.on('error', () => {
      // The connection broke while idle: the next acquire opens a new one.
      if (lane.client === client) lane.discard();
    });
    lane.client = client;
    try {
      await client.query(`SET lock_timeout = ${this.waitMs}`);
    } catch (error) {
      lane.discard();
      throw error;
    }
    return client;
  }

  /** The pool the lanes' connections come from, made on first use (again after a failure). */
  private connections(): Promise<PgPool> {
    if (!this.pool) {
      const driver = this.dataSource.driver as unknown as PostgresDriverInternals;
      const pool = driver.createPool(
        {
          ...driver.options,
          extra: {
            ...(driver.options.extra ?? {}),
            max: 4,
            application_name: this.applicationName,
            connectionTimeoutMillis: this.waitMs,
            // A database that stopped answering: the statement fails and the connection is ended.
            query_timeout: this.waitMs + 5_000,
            keepAlive: true,
          },
        },
        driver.options,
      );
      pool.catch(() => {
        if (this.pool === pool) this.pool = undefined;
      });
      this.pool = pool;
    }
    return this.pool;
  }
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
