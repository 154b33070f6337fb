import * as path from 'node:path';
import { DatabaseUnreachable } from '@app/persistence';
import { loadConfig } from './config/app-config';
import { databaseErrorLine, redactedUrl } from './cli-errors';

const withUrl = loadConfig({ DATABASE_URL: 'postgres://ops:s3cret@db.internal:5432/accounting?sslpassword=x' });
const embedded = loadConfig({ DATA_DIR: '/var/lib/acct' });

/** What pg throws when the server answers with an error. */
const serverError = (code: string, message: string) => Object.assign(new Error(message), { code, severity: 'FATAL' });

describe('the CLI’s database error line', () => {
  it('never shows the password', () => {
    expect(redactedUrl('postgres://ops:s3cret@db.internal:5432/accounting?sslpassword=x&sslmode=require')).toBe(
      'postgres://ops@db.internal:5432/accounting?sslmode=require',
    );
  });

  it('names DATABASE_URL when the server cannot be reached, with the socket’s code', () => {
    const refused = Object.assign(new AggregateError([], ''), {
      errors: [Object.assign(new Error('connect ECONNREFUSED 10.0.0.5:5432'), { code: 'ECONNREFUSED' })],
    });
    expect(databaseErrorLine(refused, withUrl)).toBe(
      'cannot reach PostgreSQL at postgres://ops@db.internal:5432/accounting (DATABASE_URL): ECONNREFUSED',
    );
    expect(databaseErrorLine(new DatabaseUnreachable(3, 'timeout exceeded when trying to connect'), embedded)).toBe(
      `cannot reach the embedded PostgreSQL in ${path.resolve('/var/lib/acct')} (DATABASE_URL is unset): ` +
        'the database could not be reached in 3 attempts (last: timeout exceeded when trying to connect); giving up',
    );
  });

  it('says what the server refused: the login, the database, a statement (with a hint for an unmigrated one)', () => {
    expect(databaseErrorLine(serverError('28P01', 'password authentication failed for user "ops"'), withUrl)).toBe(
      'cannot connect to PostgreSQL at postgres://ops@db.internal:5432/accounting (DATABASE_URL): ' +
        'password authentication failed for user "ops"',
    );
    expect(databaseErrorLine(serverError('3D000', 'database "accounting" does not exist'), withUrl)).toMatch(
      /^cannot connect to .*: database "accounting" does not exist$/,
    );
    const missing = Object.assign(new Error('relation "companies" does not exist'), {
      driverError: serverError('42P01', 'relation "companies" does not exist'),
    });
    expect(databaseErrorLine(missing, withUrl)).toBe(
      'PostgreSQL at postgres://ops@db.internal:5432/accounting (DATABASE_URL) refused: relation "companies" does ' +
        'not exist (is it migrated? npm run cli -- db migrate)',
    );
  });

  it('names MIGRATION_DATABASE_URL too when it is set (the commands that migrate connect there)', () => {
    const both = loadConfig({
      DATABASE_URL: 'postgres://app:a@db:5432/accounting',
      MIGRATION_DATABASE_URL: 'postgres://owner:o@db:5432/accounting',
    });
    expect(databaseErrorLine(serverError('28P01', 'password authentication failed for user "owner"'), both)).toBe(
      'cannot connect to PostgreSQL at postgres://app@db:5432/accounting (DATABASE_URL) or ' +
        'postgres://owner@db:5432/accounting (MIGRATION_DATABASE_URL): password authentication failed for user "owner"',
    );
  });

  it('leaves other errors alone', () => {
    expect(databaseErrorLine(new Error('a company "acme" already exists'), withUrl)).toBeNull();
    expect(
      databaseErrorLine(Object.assign(new Error('EACCES: permission denied'), { code: 'EACCES' }), withUrl),
    ).toBeNull();
  });
});
