import { QueryFailedError } from 'typeorm';
import { databaseOutage } from './database-outage';

const withCode = (code: string, message = 'x') => Object.assign(new Error(message), { code });

describe('databaseOutage', () => {
  it.each([
    ['a refused connection', withCode('ECONNREFUSED')],
    ['too many connections', withCode('53300', 'sorry, too many clients already')],
    ['a server starting up', withCode('57P03', 'the database system is starting up')],
    ['a pool with no free connection in time', new Error('timeout exceeded when trying to connect')],
    ['refused on every address', Object.assign(new AggregateError([withCode('ECONNREFUSED')]), {})],
  ])('says nothing ran for %s', (_, error) => {
    expect(databaseOutage(error)).toBe('not_started');
  });

  it.each([
    ['a reset connection', withCode('ECONNRESET')],
    ['an administrator shutdown', withCode('57P01', 'terminating connection due to administrator command')],
    ['a connection ended by the server', new Error('Connection terminated unexpectedly')],
    [
      'a statement whose connection ended (wrapped by TypeORM)',
      new QueryFailedError('COMMIT', [], withCode('57P01', 'terminating connection')),
    ],
  ])('says a write may have committed for %s', (_, error) => {
    expect(databaseOutage(error)).toBe('interrupted');
  });

  it.each([
    ['a unique violation', new QueryFailedError('INSERT', [], withCode('23505', 'duplicate key'))],
    ['a syntax error', withCode('42601')],
    ['a bug', new TypeError('undefined is not a function')],
    ['not an error', 'boom'],
  ])('is not an outage: %s', (_, error) => {
    expect(databaseOutage(error)).toBeNull();
  });
});
