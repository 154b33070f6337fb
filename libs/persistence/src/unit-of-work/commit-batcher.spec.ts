import { DatabaseError } from 'pg';
import { QueryFailedError } from 'typeorm';
import type { Insert, Precondition } from '../shared/insert-writer';
import { CommitBatcher, DEFAULT_COMMIT_BATCHER_OPTIONS, mergeWrites, type HeldWrites } from './commit-batcher';

/** A unit's writes: one proposal row and its events, named after `id`. */
const unit = (id: string, events = 1): HeldWrites => ({
  inserts: [
    { table: 'proposals', columns: ['id', 'status'], rows: [[id, 'PROPOSED']] },
    {
      table: 'events',
      columns: ['correlation_id', 'sequence'],
      rows: Array.from({ length: events }, (_, i) => [id, i + 1]),
    },
  ],
  preconditions: [{ function: 'expect_active_patterns', arguments: [id] }],
});

const refused = (code: string) =>
  new QueryFailedError('INSERT …', [], Object.assign(new DatabaseError('refused', 0, 'error'), { code }));

/** A write function whose statements the test answers one at a time. */
function scriptedDatabase() {
  const statements: {
    inserts: readonly Insert[];
    preconditions: readonly Precondition[];
    answer(error?: unknown): void;
  }[] = [];
  const write = (inserts: readonly Insert[], preconditions: readonly Precondition[]) =>
    new Promise<void>((resolve, reject) => {
      statements.push({ inserts, preconditions, answer: (error) => (error === undefined ? resolve() : reject(error)) });
    });
  return { statements, write };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

/** What became of each commit: 'committed', or its error. */
function outcomes(commits: Promise<void>[]): unknown[] {
  const seen: unknown[] = commits.map(() => 'pending');
  commits.forEach((commit, i) => {
    void commit.then(
      () => (seen[i] = 'committed'),
      (error: unknown) => (seen[i] = error),
    );
  });
  return seen;
}

describe('CommitBatcher', () => {
  it('sends a lone unit at once, as it is', async () => {
    const db = scriptedDatabase();
    const batcher = new CommitBatcher(db.write, { ...DEFAULT_COMMIT_BATCHER_OPTIONS, maxInFlight: 1 });
    const writes = unit('a');

    const done = outcomes([batcher.commit(writes)]);
    expect(db.statements).toHaveLength(1);
    expect(db.statements[0].inserts).toBe(writes.inserts);
    db.statements[0].answer();
    await settle();
    expect(done).toEqual(['committed']);
  });

  it('sends the units that commit while every slot is busy together, as one statement, once a slot frees up', async () => {
    const db = scriptedDatabase();
    const batcher = new CommitBatcher(db.write, { ...DEFAULT_COMMIT_BATCHER_OPTIONS, maxInFlight: 1 });

    const done = outcomes([batcher.commit(unit('a')), batcher.commit(unit('b', 2)), batcher.commit(unit('c'))]);
    expect(db.statements).toHaveLength(1);
    db.statements[0].answer();
    await settle();

    expect(db.statements).toHaveLength(2);
    expect(db.statements[1]).toMatchObject(mergeWrites([unit('b', 2), unit('c')]));
    expect(done).toEqual(['committed', 'pending', 'pending']);
    db.statements[1].answer();
    await settle();
    expect(done).toEqual(['committed', 'committed', 'committed']);
  });

  it('keeps up to maxInFlight statements on their way before it holds units back', () => {
    const db = scriptedDatabase();
    const batcher = new CommitBatcher(db.write, { ...DEFAULT_COMMIT_BATCHER_OPTIONS, maxInFlight: 2 });

    for (const id of ['a', 'b', 'c', 'd']) void batcher.commit(unit(id));

    expect(db.statements.map((s) => s.inserts[0].rows)).toEqual([[['a', 'PROPOSED']], [['b', 'PROPOSED']]]);
  });

  it('sends a unit whose values outweigh largeUnitBytes at once, alone, without holding up the units behind it', async () => {
    const db = scriptedDatabase();
    const batcher = new CommitBatcher(db.write, {
      ...DEFAULT_COMMIT_BATCHER_OPTIONS,
      maxInFlight: 1,
      largeUnitBytes: 1024,
    });
    const receipt: HeldWrites = {
      inserts: [
        ...unit('with-receipt').inserts,
        { table: 'receipts', columns: ['proposal_id', 'bytes'], rows: [['with-receipt', Buffer.alloc(2048)]] },
      ],
      preconditions: [],
    };
    const done = outcomes([
      batcher.commit(unit('first')),
      batcher.commit(receipt),
      batcher.commit(unit('a')),
      batcher.commit(unit('b')),
    ]);

    // The slot is taken by `first`; the receipt's unit went anyway, the small ones wait.
    expect(db.statements.map((statement) => statement.inserts[0].rows[0][0])).toEqual(['first', 'with-receipt']);
    db.statements[0].answer();
    await settle();
    // The small units went together while the receipt's statement is still on its way.
    expect(db.statements[2].inserts[0].rows.map((row) => row[0])).toEqual(['a', 'b']);
    db.statements[2].answer();
    db.statements[1].answer();
    await settle();
    expect(done).toEqual(['committed', 'committed', 'committed', 'committed']);
  });

  /** The proposals of each statement the batcher sends once `first` is answered, statement by statement. */
  async function batchesAfterFirst(
    options: { maxUnits: number; maxParameters: number },
    units: HeldWrites[],
  ): Promise<unknown[][]> {
    const db = scriptedDatabase();
    const batcher = new CommitBatcher(db.write, { ...DEFAULT_COMMIT_BATCHER_OPTIONS, maxInFlight: 1, ...options });
    void batcher.commit(unit('first'));
    for (const writes of units) void batcher.commit(writes);
    for (let answered = 0; answered < db.statements.length; answered++) {
      db.statements[answered].answer();
      await settle();
    }
    return db.statements.slice(1).map((statement) => statement.inserts[0].rows.map((row) => row[0]));
  }

  it('puts at most maxUnits units in one statement', async () => {
    const units = ['a', 'b', 'c', 'd', 'e'].map((id) => unit(id));
    expect(await batchesAfterFirst({ maxUnits: 3, maxParameters: 30_000 }, units)).toEqual([
      ['a', 'b', 'c'],
      ['d', 'e'],
    ]);
  });

  it('puts at most maxParameters parameters in one statement, and a unit alone whatever its size', async () => {
    // unit() has 2 + 2 × events + 1 parameters: 5 with one event, 7 with two, 23 with ten.
    const units = [unit('a'), unit('b', 2), unit('c'), unit('d'), unit('big', 10), unit('e')];
    expect(await batchesAfterFirst({ maxUnits: 32, maxParameters: 11 }, units)).toEqual([
      ['a'],
      ['b'],
      ['c', 'd'],
      ['big'],
      ['e'],
    ]);
  });

  it('writes each unit of a batch the database refused alone: each gets its own outcome', async () => {
    const db = scriptedDatabase();
    const batcher = new CommitBatcher(db.write, { ...DEFAULT_COMMIT_BATCHER_OPTIONS, maxInFlight: 1 });
    const patternsChanged = new Error('the patterns of b changed');

    const done = outcomes([
      batcher.commit(unit('first')),
      batcher.commit(unit('a')),
      batcher.commit(unit('b')),
      batcher.commit(unit('c')),
    ]);
    db.statements[0].answer();
    await settle();
    db.statements[1].answer(refused('P0001'));
    await settle();

    expect(db.statements.slice(2).map((s) => s.inserts[0].rows[0][0])).toEqual(['a', 'b', 'c']);
    db.statements[2].answer();
    db.statements[3].answer(patternsChanged);
    db.statements[4].answer();
    await settle();
    expect(done).toEqual(['committed', 'committed', patternsChanged, 'committed']);
  });

  it('fails every unit of a batch whose outcome is unknown (the connection lost), and writes none again', async () => {
    const db = scriptedDatabase();
    const batcher = new CommitBatcher(db.write, { ...DEFAULT_COMMIT_BATCHER_OPTIONS, maxInFlight: 1 });
    const lost = new QueryFailedError('INSERT …', [], new Error('Connection terminated unexpectedly'));

    const done = outcomes([batcher.commit(unit('first')), batcher.commit(unit('a')), batcher.commit(unit('b'))]);
    db.statements[0].answer();
    await settle();
    db.statements[1].answer(lost);
    await settle();

    expect(db.statements).toHaveLength(2);
    expect(done).toEqual(['committed', lost, lost]);
  });
});

describe('mergeWrites', () => {
  it('merges inserts of one shape, keeping each unit’s rows in order, and keeps every precondition', () => {
    const skipping: Insert = { table: 'outbox', columns: ['id'], rows: [['x']], skipConflictsOn: ['id'] };
    const merged = mergeWrites([unit('a', 2), { inserts: [skipping], preconditions: [] }, unit('b')]);

    expect(merged.inserts).toEqual([
      {
        table: 'proposals',
        columns: ['id', 'status'],
        rows: [
          ['a', 'PROPOSED'],
          ['b', 'PROPOSED'],
        ],
        skipConflictsOn: undefined,
      },
      {
        table: 'events',
        columns: ['correlation_id', 'sequence'],
        rows: [
          ['a', 1],
          ['a', 2],
          ['b', 1],
        ],
        skipConflictsOn: undefined,
      },
      { table: 'outbox', columns: ['id'], rows: [['x']], skipConflictsOn: ['id'] },
    ]);
    expect(merged.preconditions).toEqual([
      { function: 'expect_active_patterns', arguments: ['a'] },
      { function: 'expect_active_patterns', arguments: ['b'] },
    ]);
  });
});
