import { randomUUID } from 'node:crypto';
import type { QueryRunner } from 'typeorm';
import { ConcurrencyConflict, PatternsChanged } from '@app/domain';
import { aChainEvent, aPattern, aProposal } from '@app/testing';
import type { Database } from '../database/database';
import { TypeOrmEventStore } from '../event-store/typeorm-event-store';
import { TypeOrmPatternStore } from '../pattern/typeorm-pattern.store';
import { TypeOrmProposalRepository } from '../proposal/typeorm-proposal.repository';
import { inTransaction } from '../shared/sql';
import { createCompany, openTestDatabase } from '../testing/test-database';
import { CommitBatcher, DEFAULT_COMMIT_BATCHER_OPTIONS } from './commit-batcher';
import { insertsOnOwnConnection, WriteBehindTransaction } from './write-behind-transaction';

let database: Database;
let company: string;

beforeAll(async () => {
  database = await openTestDatabase();
});

afterAll(async () => {
  await database.close();
});

beforeEach(async () => {
  company = await createCompany(database);
});

/** Every statement the units of work of this test send, in order, by their first words. */
function recordStatements(): string[] {
  const sent: string[] = [];
  const create = database.dataSource.createQueryRunner.bind(database.dataSource);
  jest.spyOn(database.dataSource, 'createQueryRunner').mockImplementation((...args) => {
    const runner: QueryRunner = create(...args);
    const query = runner.query.bind(runner);
    runner.query = ((sql: string, ...rest: unknown[]) => {
      sent.push(sql.trim().split(/\s+/).slice(0, 3).join(' '));
      return (query as (...a: unknown[]) => Promise<unknown>)(sql, ...rest);
    }) as QueryRunner['query'];
    return runner;
  });
  return sent;
}

afterEach(() => jest.restoreAllMocks());

const storesOf = (tx: WriteBehindTransaction) => ({
  events: new TypeOrmEventStore(tx.manager, tx.writer),
  proposals: new TypeOrmProposalRepository(tx.manager, tx.writer),
  patterns: new TypeOrmPatternStore(tx.manager, undefined, tx.writer),
});

const aNewProposal = () => ({ ...aProposal('PROPOSED', { companyId: company }), id: randomUUID() });

const countOf = async (table: string, column: string, value: string): Promise<number> => {
  const [row] = (await database.dataSource.query(`SELECT count(*)::int AS n FROM ${table} WHERE ${column} = $1`, [
    value,
  ])) as { n: number }[];
  return row.n;
};

/**
 * A submission-like unit: a proposal and the first event of its chain (the proposal's id unless
 * `chain` is given), optionally checking a pattern's version first; through `commits` when given.
 */
const submission = (
  options: {
    commits?: CommitBatcher;
    chain?: string;
    expect?: { pattern: ReturnType<typeof aPattern>; version: number };
  } = {},
) => {
  const fresh = aNewProposal();
  const proposal = { ...fresh, correlationId: options.chain ?? fresh.id };
  const done = WriteBehindTransaction.run(
    database.dataSource,
    async (tx) => {
      const { events, proposals, patterns } = storesOf(tx);
      if (options.expect)
        await patterns.expectActive(company, 'spotify', [
          { ...options.expect.pattern, version: options.expect.version },
        ]);
      await proposals.insert(proposal);
      await events.append([aChainEvent(company, proposal.correlationId, 1)]);
    },
    undefined,
    options.commits,
  );
  return { proposal, done };
};

describe('WriteBehindTransaction', () => {
  it('commits a unit that only inserts as ONE statement, without BEGIN and COMMIT', async () => {
    const sent = recordStatements();
    const proposal = aNewProposal();

    await WriteBehindTransaction.run(database.dataSource, async (tx) => {
      const { events, proposals } = storesOf(tx);
      await proposals.insert(proposal);
      await events.append([aChainEvent(company, proposal.id, 1), aChainEvent(company, proposal.id, 2)]);
    });

    expect(sent).toEqual(['WITH w1 AS']);
    expect(await countOf('proposals', 'id', proposal.id)).toBe(1);
    expect(await countOf('events', 'correlation_id', proposal.id)).toBe(2);
  });

  it('checks a precondition in the same one statement as the inserts: unchanged patterns commit, changed ones undo it all', async () => {
    const pattern = aPattern({ id: randomUUID(), companyId: company, merchantName: 'Spotify' });
    await new TypeOrmPatternStore(database.dataSource.manager).save(pattern, null);
    const sent = recordStatements();
    const submit = (version: number) => submission({ expect: { pattern, version } });

    const kept = submit(pattern.version);
    await kept.done;
    const undone = submit(pattern.version + 1);
    await expect(undone.done).rejects.toEqual(new PatternsChanged('spotify'));

    expect(sent).toEqual(['WITH w1 AS', 'WITH w1 AS']);
    expect(await countOf('proposals', 'id', kept.proposal.id)).toBe(1);
    expect(await countOf('proposals', 'id', undone.proposal.id)).toBe(0);
    expect(await countOf('events', 'correlation_id', undone.proposal.id)).toBe(0);
  });

  it('opens the transaction at the first read, writes what it held first, and reads its own writes', async () => {
    const sent = recordStatements();
    const proposal = aNewProposal();

    const seen = await WriteBehindTransaction.run(database.dataSource, async (tx) => {
      const { events, proposals } = storesOf(tx);
      await proposals.insert(proposal);
      const found = await proposals.findById(company, proposal.id);
      await events.append([aChainEvent(company, proposal.id, 1)]);
      return found;
    });

    expect(seen?.id).toBe(proposal.id);
    expect(sent).toEqual([
      'START TRANSACTION',
      'INSERT INTO proposals',
      'SELECT id, company_id,',
      'INSERT INTO events',
      'COMMIT',
    ]);
    expect(await countOf('events', 'correlation_id', proposal.id)).toBe(1);
  });

  it('sends nothing for a unit that throws before it needed the database', async () => {
    const sent = recordStatements();
    const proposal = aNewProposal();
    const failure = new Error('boom');

    await expect(
      WriteBehindTransaction.run(database.dataSource, async (tx) => {
        await storesOf(tx).proposals.insert(proposal);
        throw failure;
      }),
    ).rejects.toBe(failure);

    expect(sent).toEqual([]);
    expect(await countOf('proposals', 'id', proposal.id)).toBe(0);
  });

  it('rolls back what it sent when the unit throws after opening the transaction', async () => {
    const proposal = aNewProposal();

    await expect(
      WriteBehindTransaction.run(database.dataSource, async (tx) => {
        const { proposals } = storesOf(tx);
        await proposals.insert(proposal);
        await proposals.findById(company, proposal.id);
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');

    expect(await countOf('proposals', 'id', proposal.id)).toBe(0);
  });

  it('fails the whole unit with the held insert’s own error: a taken event position is a ConcurrencyConflict', async () => {
    const chain = randomUUID();
    await new TypeOrmEventStore(database.dataSource.manager).append([aChainEvent(company, chain, 1)]);
    const proposal = { ...aNewProposal(), correlationId: chain };

    await expect(
      WriteBehindTransaction.run(database.dataSource, async (tx) => {
        const { events, proposals } = storesOf(tx);
        await proposals.insert(proposal);
        await events.append([aChainEvent(company, chain, 1)]);
      }),
    ).rejects.toBeInstanceOf(ConcurrencyConflict);

    expect(await countOf('proposals', 'id', proposal.id)).toBe(0);
  });

  it('keeps the transaction to itself: stores join it, and may not start, commit or roll back their own', async () => {
    await WriteBehindTransaction.run(database.dataSource, async (tx) => {
      expect(await inTransaction(tx.manager, async (joined) => joined === tx.manager)).toBe(true);
      expect(() => tx.manager.queryRunner!.commitTransaction()).toThrow('the unit of work owns the transaction');
      await expect(tx.manager.transaction(async () => undefined)).rejects.toThrow(
        'the unit of work owns the transaction',
      );
    });
  });
});

describe('WriteBehindTransaction with a CommitBatcher (group commit)', () => {
  const batcher = () =>
    new CommitBatcher(insertsOnOwnConnection(database.dataSource), {
      ...DEFAULT_COMMIT_BATCHER_OPTIONS,
      maxInFlight: 1,
    });

  it('commits the units that arrive while a statement is on its way together, as one statement, each entirely', async () => {
    const commits = batcher();
    const sent = recordStatements();

    const units = [1, 2, 3, 4].map(() => submission({ commits }));
    await Promise.all(units.map((u) => u.done));

    expect(sent).toEqual(['WITH w1 AS', 'WITH w1 AS']); // the first alone, then the other three together
    for (const { proposal } of units) {
      expect(await countOf('proposals', 'id', proposal.id)).toBe(1);
      expect(await countOf('events', 'correlation_id', proposal.correlationId)).toBe(1);
    }
  });

  it('fails only the unit whose precondition no longer holds; the others of its batch commit', async () => {
    const pattern = aPattern({ id: randomUUID(), companyId: company, merchantName: 'Spotify' });
    await new TypeOrmPatternStore(database.dataSource.manager).save(pattern, null);
    const commits = batcher();

    const first = submission({ commits });
    const kept = submission({ commits, expect: { pattern, version: pattern.version } });
    const stale = submission({ commits, expect: { pattern, version: pattern.version + 1 } });
    const other = submission({ commits });

    await expect(stale.done).rejects.toEqual(new PatternsChanged('spotify'));
    await Promise.all([first.done, kept.done, other.done]);
    expect(await countOf('proposals', 'id', stale.proposal.id)).toBe(0);
    expect(await countOf('events', 'correlation_id', stale.proposal.correlationId)).toBe(0);
    for (const { proposal } of [first, kept, other]) expect(await countOf('proposals', 'id', proposal.id)).toBe(1);
  });

  it('gives two units of one batch that take the same event position one winner and one ConcurrencyConflict', async () => {
    const commits = batcher();
    const chain = randomUUID();

    const first = submission({ commits });
    const racers = [submission({ commits, chain }), submission({ commits, chain })];
    await first.done;
    const results = await Promise.allSettled(racers.map((r) => r.done));

    expect(results.map((r) => r.status).sort()).toEqual(['fulfilled', 'rejected']);
    expect(results.find((r) => r.status === 'rejected')).toMatchObject({ reason: expect.any(ConcurrencyConflict) });
    expect(await countOf('events', 'correlation_id', chain)).toBe(1);
    const committed = await Promise.all(racers.map((r) => countOf('proposals', 'id', r.proposal.id)));
    expect(committed.sort()).toEqual([0, 1]);
  });
});
