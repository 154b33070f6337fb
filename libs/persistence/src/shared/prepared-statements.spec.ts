import { randomUUID } from 'node:crypto';
import { QueryFailedError } from 'typeorm';
import { aChainEvent, aProposal } from '@app/testing';
import type { Database } from '../database/database';
import { TypeOrmEventStore } from '../event-store/typeorm-event-store';
import { TypeOrmProposalRepository } from '../proposal/typeorm-proposal.repository';
import { createCompany, isRealPostgres, openTestDatabase } from '../testing/test-database';
import { WriteBehindTransaction } from '../unit-of-work/write-behind-transaction';
import { PreparedStatements } from './prepared-statements';
import { isUniqueViolation } from './sql';

// Named statements need a session per connection: real PostgreSQL has one, PGlite does not.
const onRealPostgres = isRealPostgres() ? it : it.skip;

let database: Database;

beforeAll(async () => {
  // One connection: what a statement prepared stays visible to the next runner.
  database = await openTestDatabase(1);
});

afterAll(async () => {
  await database.close();
});

/** The statements the (single) pool connection has prepared, by name. */
async function preparedOnTheConnection(): Promise<Map<string, string>> {
  const rows = (await database.dataSource.query('SELECT name, statement FROM pg_prepared_statements')) as {
    name: string;
    statement: string;
  }[];
  return new Map(rows.map((row) => [row.name, row.statement]));
}

describe('PreparedStatements', () => {
  it('names the same text alike and different texts apart, and stops naming past its capacity', () => {
    const statements = PreparedStatements.named(2);
    const first = statements.nameOf('SELECT 1');
    expect(first).toMatch(/^acct_[0-9a-f]{32}$/);
    expect(statements.nameOf('SELECT 1')).toBe(first);
    const second = statements.nameOf('SELECT 2');
    expect(second).toBeDefined();
    expect(second).not.toBe(first);
    // Full: a third text goes unnamed, the ones already named keep their names.
    expect(statements.nameOf('SELECT 3')).toBeUndefined();
    expect(statements.nameOf('SELECT 1')).toBe(first);
  });

  it('names nothing when disabled', () => {
    expect(PreparedStatements.disabled.nameOf('SELECT 1')).toBeUndefined();
  });

  it('is on for real PostgreSQL and off for PGlite, whose clients share one session', async () => {
    expect((await PreparedStatements.for(database.dataSource, true)).enabled).toBe(isRealPostgres());
    expect((await PreparedStatements.for(database.dataSource, false)).enabled).toBe(false);
  });

  onRealPostgres('prepares a named statement once on the connection and answers as an unnamed one does', async () => {
    const statements = PreparedStatements.named();
    const sql = 'SELECT $1::int + 1 AS n, $2::text AS label';
    const runner = database.dataSource.createQueryRunner();
    try {
      const named = await statements.query<{ n: number; label: string }>(runner, sql, [41, 'x']);
      const again = await statements.query<{ n: number; label: string }>(runner, sql, [1, 'y']);
      const unnamed = await PreparedStatements.disabled.query<{ n: number; label: string }>(runner, sql, [41, 'x']);
      expect(named).toEqual({ rows: [{ n: 42, label: 'x' }], affected: 1 });
      expect(again.rows).toEqual([{ n: 2, label: 'y' }]);
      expect(unnamed).toEqual(named);
    } finally {
      await runner.release();
    }
    expect((await preparedOnTheConnection()).get(statements.nameOf(sql)!)).toBe(sql);
  });

  onRealPostgres(
    'fails with the same QueryFailedError as TypeORM, so a unique violation still reads as one',
    async () => {
      const statements = PreparedStatements.named();
      const company = await createCompany(database);
      const runner = database.dataSource.createQueryRunner();
      try {
        const failure = await statements
          .query(runner, 'INSERT INTO companies (id, name) VALUES ($1, $2)', [company, 'again'])
          .catch((error: unknown) => error);
        expect(failure).toBeInstanceOf(QueryFailedError);
        expect(isUniqueViolation(failure)).toBe(true);
      } finally {
        await runner.release();
      }
    },
  );

  onRealPostgres('sends a unit of work that only inserts as one named statement', async () => {
    const statements = PreparedStatements.named();
    const company = await createCompany(database);
    const proposal = { ...aProposal('PROPOSED', { companyId: company }), id: randomUUID() };
    const before = await preparedOnTheConnection();

    await WriteBehindTransaction.run(
      database.dataSource,
      async (tx) => {
        await new TypeOrmProposalRepository(tx.manager, tx.writer).insert(proposal);
        await new TypeOrmEventStore(tx.manager, tx.writer).append([aChainEvent(company, proposal.id, 1)]);
      },
      statements,
    );

    const added = [...(await preparedOnTheConnection())].filter(([name]) => !before.has(name));
    expect(added).toHaveLength(1);
    expect(added[0][1]).toMatch(/^WITH w1 AS \(INSERT INTO proposals/);
    const [row] = (await database.dataSource.query('SELECT count(*)::int AS n FROM events WHERE correlation_id = $1', [
      proposal.id,
    ])) as { n: number }[];
    expect(row.n).toBe(1);
  });
});
