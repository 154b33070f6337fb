import { insertSql, translateInsertError, type Insert } from './insert-writer';

const events: Insert = { table: 'events', columns: ['id', 'data'], rows: [['e1', '{}'], ['e2', '{"a":1}']] };
const outbox: Insert = { table: 'notification_outbox', columns: ['id'], rows: [['m1']], skipConflictsOn: ['id'] };

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
    const second = insertSql([{ ...events, rows: [['e3', '{}'], ['e4', '{}']] }, { ...outbox, rows: [['m2']] }]);

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

  it('refuses nothing to insert, a row without rows and a row of the wrong width', () => {
    expect(() => insertSql([])).toThrow('at least one insert');
    expect(() => insertSql([{ ...events, rows: [] }])).toThrow('without rows');
    expect(() => insertSql([{ ...events, rows: [['only one']] }])).toThrow('a row of 1 values for the 2 columns of events');
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
  });
});
