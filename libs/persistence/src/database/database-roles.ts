import type { DataSource, EntityManager } from 'typeorm';
import { MIGRATIONS } from '../migrations';

/** A SELECT's rows. (Not shared/sql's `select`: this module is loaded by the tests' global setup, without path aliases.) */
async function select<T>(manager: EntityManager, sql: string, parameters: unknown[] = []): Promise<T[]> {
  return (await manager.query(sql, parameters)) as T[];
}

/**
 * The audit trail: the application may read these tables and append to them, nothing else. With
 * UPDATE, DELETE, TRUNCATE or TRIGGER (or by owning a table, which allows switching its
 * immutability triggers off) it could rewrite history.
 */
const APPEND_ONLY_TABLES = ['events', 'event_seals', 'event_chain_anchors', 'company_deletions'] as const;

/** The chain keys: read, add, re-wrap (`kek rotate` updates the wrapping); never delete. */
const KEY_TABLES = ['event_chain_keys'] as const;

/** TypeORM's record of the migrations run: the application only reads it. */
const MIGRATIONS_TABLE = 'migrations';

/** What must never be allowed on a table, per table. */
const FORBIDDEN: Record<string, readonly string[]> = {
  ...Object.fromEntries(APPEND_ONLY_TABLES.map((table) => [table, ['UPDATE', 'DELETE', 'TRUNCATE', 'TRIGGER']])),
  ...Object.fromEntries(KEY_TABLES.map((table) => [table, ['DELETE', 'TRUNCATE', 'TRIGGER']])),
};

/**
 * Refused at start in production: the service's database role could rewrite the audit trail, or
 * the database lacks this release's migrations. `problems` lists every reason.
 */
export class DatabaseRefused extends Error {
  constructor(readonly problems: readonly string[]) {
    super(`refusing to run on this database:\n  - ${problems.join('\n  - ')}`);
    this.name = 'DatabaseRefused';
  }
}

/**
 * What the connected role may do that the application's role must not: be a superuser, own (or be
 * a member of the owner of) an audit table, or hold a forbidden privilege on one. Empty when the
 * role is fit to run the service. Tables that do not exist yet are skipped.
 */
export async function auditTrailPrivilegeProblems(manager: EntityManager): Promise<string[]> {
  const [role] = await select<{ name: string; superuser: boolean }>(
    manager,
    'SELECT current_user AS name, rolsuper AS superuser FROM pg_roles WHERE rolname = current_user',
  );
  if (role.superuser) return [`the role "${role.name}" is a superuser`];
  const tables = Object.keys(FORBIDDEN);
  const rows = await select<{ table: string; owner: string; owns: boolean; privileges: string[] }>(
    manager,
    `SELECT c.relname AS table, pg_get_userbyid(c.relowner) AS owner,
            pg_has_role(current_user, c.relowner, 'MEMBER') AS owns,
            ARRAY(SELECT p FROM unnest(ARRAY['UPDATE', 'DELETE', 'TRUNCATE', 'TRIGGER']) AS p
                   WHERE has_table_privilege(c.oid, p)) AS privileges
       FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname = current_schema() AND c.relkind = 'r' AND c.relname = ANY ($1)
      ORDER BY c.relname`,
    [tables],
  );
  const problems: string[] = [];
  for (const row of rows) {
    if (row.owns) {
      problems.push(
        row.owner === role.name
          ? `the role "${role.name}" owns ${row.table}`
          : `the role "${role.name}" is a member of "${row.owner}", which owns ${row.table}`,
      );
      continue;
    }
    const forbidden = row.privileges.filter((privilege) => FORBIDDEN[row.table].includes(privilege));
    if (forbidden.length > 0) problems.push(`the role "${role.name}" may ${forbidden.join(', ')} ${row.table}`);
  }
  return problems;
}

/** The migrations this release has that the database has not run. */
export async function pendingMigrations(manager: EntityManager): Promise<string[]> {
  const [{ exists }] = await select<{ exists: boolean }>(
    manager,
    `SELECT to_regclass(format('%I.%I', current_schema(), $1::text)) IS NOT NULL AS exists`,
    [MIGRATIONS_TABLE],
  );
  const ran = exists
    ? new Set((await select<{ name: string }>(manager, `SELECT name FROM ${MIGRATIONS_TABLE}`)).map((r) => r.name))
    : new Set<string>();
  return MIGRATIONS.map((Migration) => new Migration().name!).filter((name) => !ran.has(name));
}

export interface AppRoleGrant {
  readonly role: string;
  /** The role did not exist and was created (with the password given, if any). */
  readonly created: boolean;
  /** The role does not exist and `create` was false: nothing was granted. */
  readonly missing: boolean;
}

/** The role name in a PostgreSQL URL (its user), or null when it names none. */
export function roleOfUrl(url: string): string | null {
  const user = decodeURIComponent(new URL(url).username);
  return user === '' ? null : user;
}

const ROLE_NAME = /^[A-Za-z_][A-Za-z0-9_$-]{0,62}$/;

/**
 * Creates the application's role if it does not exist, and grants it what the service needs and
 * no more, over a connection of the role that owns the schema (MIGRATION_DATABASE_URL):
 *
 * - every table: SELECT, INSERT, UPDATE, DELETE; sequences: USAGE, SELECT;
 * - the audit tables (APPEND_ONLY_TABLES): SELECT, INSERT only; the chain keys: no DELETE;
 *   `migrations`: SELECT only;
 * - default privileges, so tables and sequences the owner creates in later migrations get the
 *   general grants at once. An audit table added later needs this step again: the service refuses
 *   to start until it is run.
 *
 * Idempotent: it revokes and grants in one transaction, so re-running it after any migration
 * converges on exactly these grants. An existing role keeps its password and attributes.
 */
export async function grantAppRole(
  owner: DataSource,
  role: string,
  options: { password?: string; /** Create the role when missing (default true). */ create?: boolean } = {},
): Promise<AppRoleGrant> {
  if (!ROLE_NAME.test(role)) throw new RangeError(`"${role}" is not a role name this command accepts`);
  const [{ self }] = await select<{ self: boolean }>(owner.manager, 'SELECT current_user = $1 AS self', [role]);
  if (self) {
    throw new RangeError(
      `DATABASE_URL and MIGRATION_DATABASE_URL name the same role "${role}": the service needs a role of its own`,
    );
  }
  return owner.transaction(async (tx) => {
    const [{ exists }] = await select<{ exists: boolean }>(
      tx,
      'SELECT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = $1) AS exists',
      [role],
    );
    // Utility statements take no parameters: the server quotes the identifier and the password.
    const statement = async (template: string, ...values: unknown[]): Promise<void> => {
      const [{ sql }] = await select<{ sql: string }>(tx, `SELECT format(${template}) AS sql`, values);
      await tx.query(sql);
    };
    if (!exists && options.create === false) return { role, created: false, missing: true };
    if (!exists) {
      if (options.password)
        await statement(`'CREATE ROLE %I LOGIN PASSWORD %L', $1::text, $2::text`, role, options.password);
      else await statement(`'CREATE ROLE %I LOGIN', $1::text`, role);
    }
    const inSchema = async (sql: string): Promise<void> =>
      statement(`'${sql}', current_database(), current_schema(), $1::text`, role);
    // %1$I the database, %2$I the schema, %3$I the role.
    await inSchema('GRANT CONNECT ON DATABASE %1$I TO %3$I');
    await inSchema('GRANT USAGE ON SCHEMA %2$I TO %3$I');
    await inSchema('REVOKE ALL ON ALL TABLES IN SCHEMA %2$I FROM %3$I');
    await inSchema('GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA %2$I TO %3$I');
    await inSchema('GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA %2$I TO %3$I');
    await inSchema('ALTER DEFAULT PRIVILEGES IN SCHEMA %2$I GRANT SELECT, INSERT, UPDATE, DELETE ON TABLES TO %3$I');
    await inSchema('ALTER DEFAULT PRIVILEGES IN SCHEMA %2$I GRANT USAGE, SELECT ON SEQUENCES TO %3$I');
    const existing = async (tables: readonly string[]): Promise<string[]> =>
      (
        await select<{ name: string }>(
          tx,
          `SELECT c.relname AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
            WHERE n.nspname = current_schema() AND c.relkind = 'r' AND c.relname = ANY ($1)`,
          [tables],
        )
      ).map((row) => row.name);
    for (const table of await existing(APPEND_ONLY_TABLES)) {
      await statement(`'REVOKE UPDATE, DELETE ON %I FROM %I, PUBLIC', $2::text, $1::text`, role, table);
    }
    for (const table of await existing(KEY_TABLES)) {
      await statement(`'REVOKE DELETE ON %I FROM %I, PUBLIC', $2::text, $1::text`, role, table);
    }
    for (const table of await existing([MIGRATIONS_TABLE])) {
      await statement(`'REVOKE INSERT, UPDATE, DELETE ON %I FROM %I', $2::text, $1::text`, role, table);
    }
    return { role, created: !exists, missing: false };
  });
}
