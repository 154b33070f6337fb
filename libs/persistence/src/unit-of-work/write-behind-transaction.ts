import type { DataSource, EntityManager, QueryRunner } from 'typeorm';
import {
  writeInserts,
  type Insert,
  type InsertWriter,
  type Precondition,
  type SqlTarget,
} from '../shared/insert-writer';
import { PreparedStatements } from '../shared/prepared-statements';
import type { CommitBatcher } from './commit-batcher';

/**
 * The transaction of one unit of work, opened only when the unit needs it.
 *
 * Stores hand their INSERTs to `writer`, which holds them; anything else sent through `manager` (a
 * read, an UPDATE, an INSERT … RETURNING) first opens the transaction and writes the held inserts,
 * in order, so the unit reads its own writes exactly as in a transaction opened up front. At
 * `commit`:
 * - a transaction was opened: the held inserts are written, then COMMIT;
 * - none was (the unit only inserted, e.g. a submitted proposal with its events and outbox rows):
 *   every held insert goes out as ONE statement (`insertSql`), atomic by itself, so the unit costs
 *   one round trip instead of BEGIN, one per insert, and COMMIT.
 *   With a `batcher`, that statement may carry other units' inserts too (group commit: see
 *   CommitBatcher); each unit still commits entirely or not at all, with its own error.
 * Preconditions (`writer.expect`: a function that raises unless something the unit relied on still
 * holds) are held the same way and checked by the same statement as the held inserts. A held
 * insert's failure (a unique violation → ConcurrencyConflict) or a failed precondition therefore
 * surfaces from `commit`, and the unit of work fails as a whole, as it would have at the insert. Held inserts go
 * as named statements when `statements` allows: their shapes are few (a submission's, an
 * approval's…), so each connection plans each of them once.
 *
 * The transaction belongs to the unit of work: stores that ask the manager to start, commit or roll
 * back one are refused (`inTransaction` sees it as already active and joins it).
 */
export class WriteBehindTransaction {
  readonly manager: EntityManager;
  readonly writer: InsertWriter;
  private readonly runner: QueryRunner;
  /** Where held inserts are written: the runner itself, with named statements when allowed. */
  private readonly inserts: SqlTarget;
  private readonly held: Insert[] = [];
  private readonly heldPreconditions: Precondition[] = [];
  private opened = false;

  constructor(
    dataSource: DataSource,
    statements: PreparedStatements = PreparedStatements.disabled,
    private readonly batcher?: CommitBatcher,
  ) {
    // A query runner takes its pool connection at its first query, not here. Held inserts go
    // straight to it: its `manager` becomes the guarded one below, which would open the transaction.
    this.runner = dataSource.createQueryRunner();
    this.inserts = { query: (sql, parameters = []) => statements.query(this.runner, sql, parameters) };
    this.manager = dataSource.createEntityManager(this.guardedRunner());
    this.writer = {
      insert: (insert) => {
        if (this.opened) return writeInserts(this.inserts, [insert]);
        this.held.push(insert);
        return Promise.resolve();
      },
      expect: (precondition) => {
        if (this.opened) return writeInserts(this.inserts, [], [precondition]);
        this.heldPreconditions.push(precondition);
        return Promise.resolve();
      },
    };
  }

  async commit(): Promise<void> {
    if (!this.opened && this.batcher && (this.held.length > 0 || this.heldPreconditions.length > 0)) {
      return this.batcher.commit({ inserts: this.held.splice(0), preconditions: this.heldPreconditions.splice(0) });
    }
    await this.writeHeld();
    if (this.opened) await this.runner.commitTransaction();
  }

  /** Undoes what was sent and drops what was held. */
  async rollback(): Promise<void> {
    this.held.length = 0;
    this.heldPreconditions.length = 0;
    if (this.opened && this.runner.isTransactionActive) await this.runner.rollbackTransaction();
  }

  async release(): Promise<void> {
    if (!this.runner.isReleased) await this.runner.release();
  }

  /** Before anything the stores send: open the transaction and write what is held, in order. */
  private async open(): Promise<void> {
    if (!this.opened) {
      this.opened = true;
      await this.runner.startTransaction();
    }
    await this.writeHeld();
  }

  private writeHeld(): Promise<void> {
    return writeInserts(this.inserts, this.held.splice(0), this.heldPreconditions.splice(0));
  }

  /** The runner the stores' manager uses: `query` opens the transaction first; the transaction is ours. */
  private guardedRunner(): QueryRunner {
    const runner = this.runner;
    const refuse = (what: string) => () => {
      throw new Error(`${what}: the unit of work owns the transaction`);
    };
    return new Proxy(runner, {
      get: (target, property) => {
        switch (property) {
          case 'query':
            return async (...args: Parameters<QueryRunner['query']>) => {
              await this.open();
              return target.query(...args);
            };
          case 'connect':
            // Whoever asks for the connection itself is about to send something on it.
            return async () => {
              await this.open();
              return target.connect();
            };
          case 'isTransactionActive':
            return true;
          case 'startTransaction':
            return refuse('startTransaction');
          case 'commitTransaction':
            return refuse('commitTransaction');
          case 'rollbackTransaction':
            return refuse('rollbackTransaction');
          default: {
            const value: unknown = Reflect.get(target, property, target);
            return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
          }
        }
      },
    });
  }

  /** Runs `work` with this transaction: committed when it succeeds, rolled back when it throws. */
  static async run<T>(
    dataSource: DataSource,
    work: (tx: WriteBehindTransaction) => Promise<T>,
    statements?: PreparedStatements,
    batcher?: CommitBatcher,
  ): Promise<T> {
    const tx = new WriteBehindTransaction(dataSource, statements, batcher);
    try {
      const result = await work(tx);
      await tx.commit();
      return result;
    } catch (error) {
      await tx.rollback();
      throw error;
    } finally {
      await tx.release();
    }
  }
}

/**
 * Writes inserts and preconditions as one statement on a connection of its own, taken from the
 * pool for that statement only: what a CommitBatcher sends its batches with.
 */
export function insertsOnOwnConnection(
  dataSource: DataSource,
  statements: PreparedStatements = PreparedStatements.disabled,
): (inserts: readonly Insert[], preconditions: readonly Precondition[]) => Promise<void> {
  return async (inserts, preconditions) => {
    const runner = dataSource.createQueryRunner();
    try {
      await writeInserts(
        { query: (sql, parameters = []) => statements.query(runner, sql, parameters) },
        inserts,
        preconditions,
      );
    } finally {
      await runner.release();
    }
  };
}
