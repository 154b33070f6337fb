import { spawn } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Client } from 'pg';
import { aChainEvent } from '@app/testing';
import {
  auditTrailPrivilegeProblems,
  Database,
  DatabaseRefused,
  eventHash,
  GENESIS_HASH,
  TypeOrmEventStore,
} from '@app/persistence';
import { createApp } from '../apps/accounting-api/src/bootstrap';
import { buildCli, ChainBroken } from '../apps/accounting-api/src/cli';
import { loadConfig } from '../apps/accounting-api/src/config/app-config';
import { productionSecretsEnv } from './support/production-env';
import { makeKey, writeJwks } from './support/gateway-keys';

/**
 * The first set-up as docs/operations.md ("Database roles") gives it: the variables its bash block
 * exports and the CLI commands it runs, in order (`npm run cli -- db migrate` → ['db', 'migrate']).
 */
function firstSetUpCommands(): { variables: string[]; commands: string[][] } {
  const doc = fs.readFileSync(path.join(__dirname, '../docs/operations.md'), 'utf8');
  const block = /\*\*First set-up\*\*[\s\S]*?```bash\n([\s\S]*?)```/.exec(doc)?.[1] ?? '';
  const lines = block.split('\n').map((line) => line.replace(/#.*$/, '').trim());
  return {
    variables: lines.flatMap((line) => /^export (\w+)=/.exec(line)?.[1] ?? []),
    commands: lines.flatMap((line) => {
      const args = /^npm run cli -- (.+)$/.exec(line)?.[1];
      return args === undefined ? [] : [args.split(/\s+/)];
    }),
  };
}

/**
 * Two roles on PostgreSQL: the schema's owner runs the migrations, the service runs as a role
 * that may only read and append to the audit trail, and production refuses to start as any role
 * that could rewrite it. A database and two roles of their own, with a random suffix (others run
 * suites on the same server), dropped afterwards.
 */
describe('database roles: the owner migrates, the service may only read and append to the audit trail', () => {
  const suffix = randomBytes(4).toString('hex');
  const ownerRole = `acct_roles_owner_${suffix}`;
  const appRole = `acct_roles_app_${suffix}`;
  const appPassword = `pw-${randomBytes(8).toString('hex')}`;
  const ownerPassword = `pw-${randomBytes(8).toString('hex')}`;
  const databaseName = `acct_roles_${suffix}_test`;
  const admin = () => new Client({ connectionString: process.env.DATABASE_URL });
  let ownerUrl: string;
  let appUrl: string;
  let dataDir: string;
  let jwksFile: string;

  const urlFor = (user: string, password?: string): string => {
    const url = new URL(process.env.DATABASE_URL!);
    url.username = user;
    url.password = password ?? '';
    url.pathname = `/${databaseName}`;
    return url.toString();
  };

  async function adminQuery(sql: string): Promise<void> {
    const client = admin();
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  }

  async function as<T>(url: string, work: (client: Client) => Promise<T>): Promise<T> {
    const client = new Client({ connectionString: url });
    await client.connect();
    try {
      return await work(client);
    } finally {
      await client.end();
    }
  }

  const env = (overrides: Record<string, string> = {}) => ({
    DATABASE_URL: appUrl,
    MIGRATION_DATABASE_URL: ownerUrl,
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    ...overrides,
  });

  async function cli(overrides: Record<string, string>, ...args: string[]): Promise<string[]> {
    const lines: string[] = [];
    await buildCli(
      () => loadConfig(env(overrides)),
      (line) => lines.push(line),
    ).parseAsync(['node', 'cli', ...args]);
    return lines;
  }

  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'acct-roles-'));
    jwksFile = path.join(dataDir, 'gateway-jwks.json');
    writeJwks(jwksFile, [makeKey('roles-key')]);
    // The owner may create the application's role, as a DBA's migration role typically may.
    await adminQuery(`CREATE ROLE ${ownerRole} LOGIN CREATEROLE PASSWORD '${ownerPassword}'`);
    await adminQuery(`CREATE DATABASE ${databaseName} OWNER ${ownerRole}`);
    await adminQuery(`REVOKE ALL ON DATABASE ${databaseName} FROM PUBLIC`);
    ownerUrl = urlFor(ownerRole, ownerPassword);
    appUrl = urlFor(appRole, appPassword);
  });

  afterAll(async () => {
    await adminQuery(`DROP DATABASE IF EXISTS ${databaseName} WITH (FORCE)`);
    await adminQuery(`DROP ROLE IF EXISTS ${appRole}`);
    await adminQuery(`DROP ROLE IF EXISTS ${ownerRole}`);
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('sets up an empty database with the commands of docs/operations.md, in their order: db migrate, then db grant-app-role (idempotently)', async () => {
    const { variables, commands } = firstSetUpCommands();
    expect(variables).toEqual(['MIGRATION_DATABASE_URL', 'DATABASE_URL']);
    expect(commands).toEqual([
      ['db', 'migrate'],
      ['db', 'grant-app-role'],
    ]);
    const [migrated, created] = [await cli({}, ...commands[0]!), await cli({}, ...commands[1]!)];
    expect(migrated[0]).toMatch(/^ran \d+ migration\(s\)/);
    expect(created[0]).toMatch(new RegExp(`^created the role ${appRole}; granted: read and append on events`));
    const [again] = await cli({}, 'db', 'grant-app-role');
    expect(again).toMatch(new RegExp(`^the role ${appRole} exists \\(its password is left as it is\\)`));

    const owners = await as(ownerUrl, async (c) =>
      (
        await c.query<{ relname: string; owner: string }>(
          `SELECT relname, pg_get_userbyid(relowner) AS owner FROM pg_class
            WHERE relname IN ('events', 'event_seals', 'event_chain_keys', 'event_chain_anchors')`,
        )
      ).rows.map((r) => r.owner),
    );
    expect(owners).toEqual([ownerRole, ownerRole, ownerRole, ownerRole]);
    await expect(cli({ MIGRATION_DATABASE_URL: appUrl }, 'db', 'grant-app-role')).rejects.toThrow(/same role/);
  });

  it('lets the application role read and append to events, and refuses it UPDATE, DELETE, TRUNCATE, triggers and DDL', async () => {
    const company = `roles-${suffix}`;
    await as(appUrl, async (c) => {
      await c.query('INSERT INTO companies (id, name) VALUES ($1, $2)', [company, 'Roles AS']);
    });
    const database = await Database.open({ url: appUrl, dataDir, role: 'client', poolSize: 1 });
    try {
      await new TypeOrmEventStore(database.dataSource.manager).append([aChainEvent(company, randomUUID(), 1)]);
      expect(await auditTrailPrivilegeProblems(database.dataSource.manager)).toEqual([]);
    } finally {
      await database.close();
    }
    await as(appUrl, async (c) => {
      expect((await c.query('SELECT count(*)::int AS n FROM events WHERE company_id = $1', [company])).rows).toEqual([
        { n: 1 },
      ]);
      for (const [sql, refusal] of [
        [`UPDATE events SET actor = 'eve' WHERE company_id = '${company}'`, /permission denied for table events/],
        [`DELETE FROM events WHERE company_id = '${company}'`, /permission denied for table events/],
        ['TRUNCATE events', /permission denied for table events/],
        ['ALTER TABLE events DISABLE TRIGGER USER', /must be owner of table events/],
        [
          'CREATE TRIGGER sneak BEFORE INSERT ON events FOR EACH ROW EXECUTE FUNCTION events_refuse_change()',
          /permission denied for table events/,
        ],
        ['DROP TABLE event_seals', /must be owner of table event_seals/],
        [`UPDATE event_seals SET hash = hash`, /permission denied for table event_seals/],
        ['DELETE FROM event_chain_anchors', /permission denied for table event_chain_anchors/],
        ['DELETE FROM event_chain_keys', /permission denied for table event_chain_keys/],
        [`INSERT INTO migrations ("timestamp", name) VALUES (1, 'x')`, /permission denied for table migrations/],
        ['DELETE FROM company_deletions', /permission denied for table company_deletions/],
        [`UPDATE company_deletions SET actor = 'eve'`, /permission denied for table company_deletions/],
      ] as const) {
        await expect(c.query(sql)).rejects.toThrow(refusal);
      }
      // Everything else the service writes, it may write.
      await c.query(`UPDATE companies SET name = 'Roles ASA' WHERE id = $1`, [company]);
    });
  });

  it('seals as the application role, and catches the owner who rewrites an event and recomputes its hash (events verify)', async () => {
    const company = `roles-${suffix}`;
    expect(await cli({}, 'events', 'verify', '--company', company, '--seal')).toEqual([
      'sealed 1 event(s) of 1 company(ies)',
      'ok: 1 event(s) of 1 company(ies), no break',
    ]);
    // The owner's attack as found: triggers off, the event rewritten, the SHA-256 link recomputed.
    const owner = await Database.open({ url: ownerUrl, dataDir, role: 'client', poolSize: 1 });
    try {
      await owner.dataSource.transaction(async (tx) => {
        await tx.query('ALTER TABLE events DISABLE TRIGGER USER');
        await tx.query('ALTER TABLE event_seals DISABLE TRIGGER USER');
        // An UPDATE … RETURNING answers [rows, count].
        const [[changed]] = (await tx.query(
          `UPDATE events SET actor = 'eve@example.no' WHERE company_id = $1 RETURNING correlation_id`,
          [company],
        )) as [{ correlation_id: string }[], number];
        const [forged] = await new TypeOrmEventStore(tx).readChain(company, changed.correlation_id);
        await tx.query('UPDATE event_seals SET hash = $2, key_version = 0 WHERE event_id = $1', [
          forged.id,
          eventHash(GENESIS_HASH, forged),
        ]);
        await tx.query('ALTER TABLE events ENABLE TRIGGER USER');
        await tx.query('ALTER TABLE event_seals ENABLE TRIGGER USER');
      });
    } finally {
      await owner.close();
    }
    const lines: string[] = [];
    await expect(
      buildCli(
        () => loadConfig(env()),
        (line) => lines.push(line),
      ).parseAsync(['node', 'cli', 'events', 'verify', '--company', company]),
    ).rejects.toBeInstanceOf(ChainBroken);
    expect(lines).toEqual([
      expect.stringMatching(new RegExp(`^BREAK company=${company} event=.* chain_index=1 .*no anchor`)),
    ]);
  });

  it('gives tables of later migrations the application’s grants at once (default privileges)', async () => {
    await as(ownerUrl, (c) => c.query('CREATE TABLE later_things (id serial PRIMARY KEY, note text)'));
    await as(appUrl, async (c) => {
      await c.query(`INSERT INTO later_things (note) VALUES ('a')`);
      await c.query(`UPDATE later_things SET note = 'b'`);
      await c.query('DELETE FROM later_things');
    });
    await as(ownerUrl, (c) => c.query('DROP TABLE later_things'));
  });

  it('reports every way a role could rewrite the audit trail', async () => {
    const owner = await Database.open({ url: ownerUrl, dataDir, role: 'client', poolSize: 1 });
    try {
      expect(await auditTrailPrivilegeProblems(owner.dataSource.manager)).toEqual([
        `the role "${ownerRole}" owns company_deletions`,
        `the role "${ownerRole}" owns event_chain_anchors`,
        `the role "${ownerRole}" owns event_chain_keys`,
        `the role "${ownerRole}" owns event_seals`,
        `the role "${ownerRole}" owns events`,
      ]);
      await owner.dataSource.query(`GRANT UPDATE, TRIGGER ON events TO ${appRole}`);
      await owner.dataSource.query(`GRANT DELETE ON event_chain_keys TO ${appRole}`);
    } finally {
      await owner.close();
    }
    const app = await Database.open({ url: appUrl, dataDir, role: 'client', poolSize: 1 });
    try {
      expect(await auditTrailPrivilegeProblems(app.dataSource.manager)).toEqual([
        `the role "${appRole}" may DELETE event_chain_keys`,
        `the role "${appRole}" may UPDATE, TRIGGER events`,
      ]);
    } finally {
      await app.close();
    }
    // Re-running the grants converges on the designed set again.
    await cli({}, 'db', 'grant-app-role');
    const again = await Database.open({ url: appUrl, dataDir, role: 'client', poolSize: 1 });
    try {
      expect(await auditTrailPrivilegeProblems(again.dataSource.manager)).toEqual([]);
    } finally {
      await again.close();
    }
    const superuser = await Database.open({ url: process.env.DATABASE_URL!, dataDir, role: 'client', poolSize: 1 });
    try {
      expect(await auditTrailPrivilegeProblems(superuser.dataSource.manager)).toEqual([
        expect.stringMatching(/is a superuser/),
      ]);
    } finally {
      await superuser.close();
    }
  });

  const production = (overrides: Record<string, string> = {}) =>
    env({
      NODE_ENV: 'production',
      GATEWAY_JWKS: jwksFile,
      ...productionSecretsEnv(),
      PROVIDER_SANDBOX: 'true',
      PORT: '0',
      ...overrides,
    });

  it('starts in production on an empty database: migrates as the owner, grants the application role, runs as it', async () => {
    const second = `${databaseName}_boot`;
    await adminQuery(`CREATE DATABASE ${second} OWNER ${ownerRole}`);
    try {
      const onSecond = (url: string) => Object.assign(new URL(url), { pathname: `/${second}` }).toString();
      const app = await createApp(
        loadConfig(production({ DATABASE_URL: onSecond(appUrl), MIGRATION_DATABASE_URL: onSecond(ownerUrl) })),
        { bufferLogs: false },
      );
      await app.close();
      await as(onSecond(appUrl), async (c) => {
        expect(
          (await c.query(`SELECT pg_get_userbyid(relowner) AS owner FROM pg_class WHERE relname = 'events'`)).rows,
        ).toEqual([{ owner: ownerRole }]);
        await expect(c.query('DELETE FROM events')).rejects.toThrow(/permission denied/);
      });
    } finally {
      await adminQuery(`DROP DATABASE IF EXISTS ${second} WITH (FORCE)`);
    }
  });

  it('refuses in production a role that owns the audit trail, or one that may rewrite it, with every reason', async () => {
    // What AppModule opens in production (refuseUnsafeRole: config.production); main turns it into exit 78.
    const open = (url: string) =>
      Database.open({
        url,
        dataDir,
        role: 'client',
        poolSize: 1,
        refuseUnsafeRole: loadConfig(production()).production,
      });
    await expect(open(ownerUrl)).rejects.toThrow(DatabaseRefused);
    await as(ownerUrl, (c) => c.query(`GRANT TRUNCATE ON event_seals TO ${appRole}`));
    try {
      await expect(open(appUrl)).rejects.toThrow(`the role "${appRole}" may TRUNCATE event_seals`);
    } finally {
      await as(ownerUrl, (c) => c.query(`REVOKE TRUNCATE ON event_seals FROM ${appRole}`));
    }
    await (await open(appUrl)).close();
  });

  it('refuses in production a database that lacks this release’s migrations', async () => {
    await as(ownerUrl, (c) => c.query(`DELETE FROM migrations WHERE name = 'KeyEventChain1764153700001'`));
    try {
      await expect(
        Database.open({ url: appUrl, dataDir, role: 'client', poolSize: 1, refuseUnsafeRole: true }),
      ).rejects.toThrow(/lacks 1 migration\(s\) of this release \(KeyEventChain1764153700001\)/);
    } finally {
      await as(ownerUrl, (c) =>
        c.query(`INSERT INTO migrations ("timestamp", name) VALUES (1764153700001, 'KeyEventChain1764153700001')`),
      );
    }
  });

  it('exits with 78 and says why when started in production as the owner', async () => {
    const child = spawn(
      process.execPath,
      [
        '-r',
        path.join(__dirname, 'support/swc-register.js'),
        path.join(__dirname, '../apps/accounting-api/src/main.ts'),
      ],
      {
        env: { ...process.env, ...production({ DATABASE_URL: ownerUrl, MIGRATE_ON_BOOT: 'false' }) },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    expect(code).toBe(78);
    expect(stderr).toContain(`the role "${ownerRole}" owns events`);
  });
});
