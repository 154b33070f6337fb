import { insertSql, translateInsertError, type Insert, type Precondition } from './insert-writer';

const events: Insert = {
  table: 'events',
  columns: ['id', 'data'],
  rows: [
    ['e1', '{}'],
    ['e2', '{"a":1}'],
  ],
};
const outbox: Insert = { table: 'notification_outbox', columns: ['id'], rows: [['m1']], skipConflictsOn: ['id'] };
const unchanged: Precondition = { function: 'expect_active_patterns', arguments: ['c1', 'spotify', ['p1'], [2]] };

describe('insertSql', () => {
  it('writes one insert as a plain multi-row INSERT with numbered parameters', () => {
    expect(insertSql([events])).toEqual({
      sql: 'INSERT INTO events (id, data) VALUES ($1, $2), ($3, $4)',
      parameters: ['e1', '{}', 'e2', '{"a":1}'],
    });
  });

  it('writes several as one statement of data-modifying CTEs, parameters numbered across them', () => {
    expect(insertSql([events, outbox])).toEqual({
      sql:
        'WITH w1 AS (INSERT INTO events (id, data) VALUES ($1, $2), ($3, $4)) ' +
        'INSERT INTO notification_outbox (id) VALUES ($5) ON CONFLICT (id) DO NOTHING',
      parameters: ['e1', '{}', 'e2', '{"a":1}', 'm1'],
    });
  });

  it('keeps values out of the SQL text, whatever they contain', () => {
    const hostile: Insert = { table: 'events', columns: ['id'], rows: [["x'); DROP TABLE events; --"]] };

    expect(insertSql([hostile]).sql).toBe('INSERT INTO events (id) VALUES ($1)');
  });

  it('gives the same shape the same text (the same string), with each call’s own parameters', () => {
    const first = insertSql([events, outbox]);
    const second = insertSql([
      {
        ...events,
        rows: [
          ['e3', '{}'],
          ['e4', '{}'],
        ],
      },
      { ...outbox, rows: [['m2']] },
    ]);

    expect(second.sql).toBe(first.sql);
    expect(second.parameters).toEqual(['e3', '{}', 'e4', '{}', 'm2']);
    expect(insertSql([{ ...events, rows: [['e5', '{}']] }, outbox]).sql).toBe(
      'WITH w1 AS (INSERT INTO events (id, data) VALUES ($1, $2)) ' +
        'INSERT INTO notification_outbox (id) VALUES ($3) ON CONFLICT (id) DO NOTHING',
    );
    expect(insertSql([{ ...events, columns: ['id', 'payload'] }]).sql).toBe(
      'INSERT INTO events (id, payload) VALUES ($1, $2), ($3, $4)',
    );
  });

  it('checks preconditions in the main query, every insert a CTE, parameters numbered after the inserts’', () => {
    expect(insertSql([events, outbox], [unchanged])).toEqual({
      sql:
        'WITH w1 AS (INSERT INTO events (id, data) VALUES ($1, $2), ($3, $4)), ' +
        'w2 AS (INSERT INTO notification_outbox (id) VALUES ($5) ON CONFLICT (id) DO NOTHING) ' +
        'SELECT expect_active_patterns($6, $7, $8, $9)',
      parameters: ['e1', '{}', 'e2', '{"a":1}', 'm1', 'c1', 'spotify', ['p1'], [2]],
    });
    expect(insertSql([outbox], [unchanged, { function: 'other_check', arguments: [] }]).sql).toBe(
      'WITH w1 AS (INSERT INTO notification_outbox (id) VALUES ($1) ON CONFLICT (id) DO NOTHING) ' +
        'SELECT expect_active_patterns($2, $3, $4, $5) AND other_check()',
    );
    expect(insertSql([], [unchanged]).sql).toBe('SELECT expect_active_patterns($1, $2, $3, $4)');
    // Not the text of the same inserts without the precondition.
    expect(insertSql([events, outbox]).sql).not.toContain('SELECT');
  });

  it('refuses nothing to insert, a row without rows and a row of the wrong width', () => {
    expect(() => insertSql([])).toThrow('at least one insert or precondition');
    expect(() => insertSql([{ ...events, rows: [] }])).toThrow('without rows');
    expect(() => insertSql([{ ...events, rows: [['only one']] }])).toThrow(
      'a row of 1 values for the 2 columns of events',
    );
  });
});

describe('translateInsertError', () => {
  it('gives the first translation that means something, or the error itself', () => {
    const failure = new Error('duplicate key');
    const conflict = new Error('conflict');
    const passes: Insert = { ...events, translateError: (error) => error };
    const claims: Insert = { ...outbox, translateError: (error) => (error === failure ? conflict : error) };

    expect(translateInsertError([passes, claims], failure)).toBe(conflict);
    expect(translateInsertError([passes], failure)).toBe(failure);
    expect(translateInsertError([claims], new Error('other'))).toEqual(new Error('other'));
    expect(translateInsertError([passes], failure, [{ ...unchanged, translateError: () => conflict }])).toBe(conflict);
  });
});
