import 'reflect-metadata';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Command, InvalidArgumentError } from 'commander';
import {
  assertCompanyId,
  assertCompanyName,
  isChannel,
  isPermission,
  isRole,
  DomainError,
  ROLE_PERMISSIONS,
  type Channel,
  type Permission,
  type Role,
} from '@app/domain';
import { DataSource } from 'typeorm';
import {
  Database,
  EventChainKeys,
  EventSealer,
  grantAppRole,
  migrateAsOwner,
  roleOfUrl,
  runMigrations,
  EventChainVerifier,
  type ChainHead,
} from '@app/persistence';
import { ConsoleAccess, DAILY_CHECKS, DeleteCompanyHandler } from '@app/application';
import { CompanyRepository } from '@app/domain';
import { consoleLoginUrl } from './console/console-login.controller';
import { Kms, rotateKek, WrappedDekRepository } from '@app/vault';
import { ConfigError, loadConfig, loadDotEnv, type AppConfig } from './config/app-config';
import { EMAIL } from './auth/gateway-jwt.strategy';
import { ensureDevKeys, rotateDevKeys, signDevToken } from './auth/dev-keys';
import { webhookSecretText } from './notifications/outbox-delivery.module';
import { withCliContext } from './cli-context';
import { databaseErrorLine, databaseName } from './cli-errors';
import { progressReport } from './cli-progress-report';

/**
 * The operators' CLI (docs/api.md §5): `npm run cli -- <command>`. A command that touches the
 * application's state runs in the CLI's application context (`withCliContext`: the composition
 * root without HTTP and without background loops) and calls its use cases and ports. With embedded
 * PostgreSQL it connects to the server of the running service when one holds DATA_DIR, and starts
 * the server itself (for the command's duration) only when none does.
 *
 * `db migrate` and `db grant-app-role` open the database directly (`withDatabase`): they prepare
 * the schema and the roles the application context needs, so they run before it could boot.
 */
async function withDatabase<T>(config: AppConfig, work: (db: Database) => Promise<T>): Promise<T> {
  const db = await Database.open({
    url: config.databaseUrl,
    dataDir: config.dataDir,
    role: 'client',
    poolSize: 2,
    runMigrations: false,
  });
  try {
    return await work(db);
  } finally {
    await db.close();
  }
}

/**
 * Runs pending migrations as the schema's owner: over MIGRATION_DATABASE_URL when it is set (which
 * then re-applies the grants of DATABASE_URL's role), else over the open database (one role, as in
 * development). Returns the migrations it ran.
 */
async function migrate(config: AppConfig, dataSource: DataSource): Promise<string[]> {
  if (config.migrationDatabaseUrl === undefined) return runMigrations(dataSource);
  return migrateAsOwner(config.migrationDatabaseUrl, config.databaseUrl);
}

/** The operator running the CLI, as the OS knows them (the default `--actor`). */
function operatorName(): string {
  try {
    return os.userInfo().username;
  } catch {
    return process.env.USER ?? 'unknown operator';
  }
}

function refuseWithRealJwks(config: AppConfig, what: string): void {
  if (!config.usesDevKeys) {
    throw new Error(
      `${what} works only with the dev key set; this service trusts the gateway JWKS at ${config.gatewayJwks}`,
    );
  }
}

/** The newest links `events verify --heads` recorded, by company. */
type RecordedHeads = Record<string, { chainIndex: number; hash: string; recordedAt: string }>;

function readHeads(file: string): RecordedHeads {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return {};
    throw error;
  }
  const parsed = JSON.parse(text) as unknown;
  if (typeof parsed !== 'object' || parsed === null) throw new Error(`${file} is not an events verify heads file`);
  return parsed as RecordedHeads;
}

/** Records the heads just verified (keeping other companies' entries), replacing the file atomically. */
function writeHeads(file: string, previous: RecordedHeads, heads: readonly ChainHead[]): void {
  const recordedAt = new Date().toISOString();
  const next: RecordedHeads = { ...previous };
  for (const head of heads) next[head.companyId] = { chainIndex: head.chainIndex, hash: head.hash, recordedAt };
  const temporary = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(temporary, `${JSON.stringify(next, null, 2)}\n`);
  fs.renameSync(temporary, file);
}

/** `events verify` found a break: reported line by line above, and the exit status is 3. */
export class ChainBroken extends Error {
  readonly exitCode = 3;
  constructor(companies: number) {
    super(`the event hash chain is broken in ${companies} company(ies)`);
  }
}

function parseChoice<T extends string>(guard: (v: unknown) => v is T, name: string) {
  return (value: string): T => {
    if (!guard(value)) throw new InvalidArgumentError(`not a valid ${name}`);
    return value;
  };
}

/** The version in the package.json above this file (source or dist). */
function packageVersion(): string {
  for (let dir = __dirname; dir !== path.dirname(dir); dir = path.dirname(dir)) {
    const file = path.join(dir, 'package.json');
    if (fs.existsSync(file)) return (JSON.parse(fs.readFileSync(file, 'utf8')) as { version: string }).version;
  }
  return 'unknown';
}

/** Where a command's other output goes: its progress (a bar on a terminal, else lines) and its warnings. */
export interface CliStreams {
  /** Default: stderr. */
  readonly progress?: NodeJS.WritableStream;
  /** Default: a line on stderr. */
  readonly warn?: (line: string) => void;
}

/**
 * Whether the company exists in the database the CLI points at, read directly (no service needs to
 * run); a line to warn with when it does not, or when the database could not be read.
 */
async function unknownCompanyWarning(config: AppConfig, companyId: string): Promise<string | null> {
  const neverStarted =
    config.databaseUrl === undefined && !fs.existsSync(path.join(config.dataDir, 'pgdata', 'PG_VERSION'));
  if (neverStarted) {
    // Nothing to read, and no reason to create a database for a token: the service has not run here yet.
    return (
      `warning: ${databaseName(config)} holds no database yet (npm start creates it, with the company "demo"), ` +
      `so no company "${companyId}" either: the service answers this token with 403 unknown_company until it exists`
    );
  }
  try {
    const rows = await withDatabase(
      config,
      (db) => db.dataSource.query('SELECT 1 FROM companies WHERE id = $1', [companyId]) as Promise<unknown[]>,
    );
    if (rows.length > 0) return null;
    return (
      `warning: ${databaseName(config)} has no company "${companyId}": the service answers this token with 403 ` +
      `unknown_company until it is registered (npm run cli -- company create ${companyId} --name "…")`
    );
  } catch (error) {
    const reason = databaseErrorLine(error, config) ?? (error instanceof Error ? error.message : String(error));
    return `warning: could not check that company "${companyId}" exists: ${reason}`;
  }
}

export function buildCli(
  config: () => AppConfig,
  out: (line: string) => void = (l) => process.stdout.write(`${l}\n`),
  streams: CliStreams = {},
): Command {
  const progress = streams.progress ?? process.stderr;
  const warn = streams.warn ?? ((line: string) => process.stderr.write(`${line}\n`));
  const program = new Command('accounting-api')
    .description('Operate the Accounting API')
    .version(packageVersion(), '-V, --version', 'print the version')
    .exitOverride();

  const company = program.command('company').description('register and list companies');
  company
    .command('create <id>')
    .requiredOption('--name <name>', 'the company name')
    .description("register a company (a token's company_id must name one)")
    .action(async (id: string, options: { name: string }) => {
      assertCompanyId(id);
      assertCompanyName(options.name);
      const cfg = config();
      await withCliContext(cfg, async (app) => {
        await migrate(cfg, app.get(DataSource));
        const created = await app.get(CompanyRepository).create({ id, name: options.name });
        if (!created) throw new Error(`a company "${id}" already exists`);
        out(`created company ${id} (${options.name})`);
      });
    });
  company
    .command('list')
    .description('list the registered companies')
    .option('--json', 'print JSON')
    .action(async (options: { json?: boolean }) => {
      // Only reads: it never changes the schema (db migrate does).
      await withCliContext(config(), async (app) => {
        const companies = await app.get(CompanyRepository).list();
        if (options.json) out(JSON.stringify(companies));
        else for (const c of companies) out(`${c.id}\t${c.name}\t${c.createdAt.toISOString()}`);
      });
    });

  company
    .command('delete <id>')
    .description(
      "destroy the company's DEK (its provider tokens become unreadable, backups included) and its provider " +
        'connection; the company record goes too unless it has audit events, which are kept. The deletion ' +
        'log (company deletions) records who deleted it',
    )
    .requiredOption('--yes', 'confirm')
    .option('--actor <name>', 'who deletes it, as the deletion log names them', operatorName())
    .action(async (id: string, options: { actor: string }) => {
      const cfg = config();
      await withCliContext(cfg, async (app) => {
        await migrate(cfg, app.get(DataSource));
        const deletion = await app.get(DeleteCompanyHandler).execute({ companyId: id, actor: options.actor });
        out(
          deletion.auditEventsKept === 0
            ? `deleted company ${id}; its DEK is destroyed`
            : `destroyed the DEK and the provider connection of ${id}; the company record stays with its ` +
                `${deletion.auditEventsKept} audit event(s)`,
        );
      });
    });
  company
    .command('deletions')
    .description('list the deletion log: which company was deleted, when and by whom')
    .option('--json', 'print JSON')
    .action(async (options: { json?: boolean }) => {
      await withCliContext(config(), async (app) => {
        const deletions = await app.get(CompanyRepository).deletions();
        if (options.json) out(JSON.stringify(deletions));
        else {
          for (const d of deletions) {
            const kept =
              d.auditEventsKept === 0 ? 'record deleted' : `record kept with ${d.auditEventsKept} audit event(s)`;
            out(`${d.deletedAt.toISOString()}\t${d.companyId}\t${d.companyName}\t${d.actor}\t${kept}`);
          }
        }
      });
    });

  program
    .command('token')
    .description(
      'print a 1-hour development token signed with the dev key set (a warning on stderr when the database has no such company)',
    )
    .requiredOption('--company <id>', 'company_id')
    .requiredOption('--role <role>', 'employee | manager | accountant | admin', parseChoice<Role>(isRole, 'role'))
    .requiredOption('--sub <email>', 'the employee email (sub)', (value: string) => {
      if (!EMAIL.test(value))
        throw new InvalidArgumentError('must be an email address, as the service requires of sub');
      return value;
    })
    .option(
      '--channel <channel>',
      'slack | discord | teams | web | email',
      parseChoice<Channel>(isChannel, 'channel'),
      'slack',
    )
    .option(
      '--permissions <list>',
      'comma-separated permission groups (default: all the role may hold)',
      (value: string) => {
        const list = value
          .split(',')
          .map((p) => p.trim())
          .filter(Boolean);
        if (!list.every(isPermission)) throw new InvalidArgumentError('unknown permission group');
        return list as Permission[];
      },
    )
    .action(
      async (options: { company: string; role: Role; sub: string; channel: Channel; permissions?: Permission[] }) => {
        const cfg = config();
        refuseWithRealJwks(cfg, 'token');
        ensureDevKeys(cfg.dataDir);
        const warning = await unknownCompanyWarning(cfg, options.company);
        if (warning !== null) warn(warning);
        out(
          signDevToken(cfg.dataDir, {
            company: options.company,
            role: options.role,
            sub: options.sub,
            channel: options.channel,
            permissions: options.permissions,
            issuer: cfg.gatewayIssuer,
            audience: cfg.gatewayAudience,
          }),
        );
      },
    );

  program
    .command('keys')
    .description('the dev key set')
    .command('rotate')
    .description('add a new dev signing key; the previous one stays accepted for 24 h')
    .action(() => {
      const cfg = config();
      refuseWithRealJwks(cfg, 'keys rotate');
      ensureDevKeys(cfg.dataDir);
      const { kid, previous } = rotateDevKeys(cfg.dataDir);
      out(`new signing key ${kid}${previous ? `; ${previous} stays accepted for 24 h` : ''}`);
    });

  program
    .command('events')
    .description('the event store')
    .command('verify')
    .description("check every company's event hash chain (or one company's); exit non-zero on a break")
    .option('--company <id>', 'only this company')
    .option('--seal', 'seal pending events first (when no service runs the sealer); otherwise verify only reads')
    .option(
      '--heads <file>',
      'a file kept outside the database: the chains must still hold the links recorded in it, and after a clean ' +
        'check it records the current newest links',
    )
    .action(async (options: { company?: string; seal?: boolean; heads?: string }) => {
      await withCliContext(config(), async (app) => {
        if (options.seal) {
          const sealed = await app.get(EventSealer).sealPending({ companyId: options.company });
          out(`sealed ${sealed.sealed} event(s) of ${sealed.companies} company(ies)`);
        }
        const verifier = app.get(EventChainVerifier);
        const bar = progressReport(progress, 'verify', { every: 10 });
        const report = await verifier
          .verify(options.company, {
            onProgress: (p) =>
              bar.update(p.companiesDone, p.companiesTotal, `companies, ${p.eventsChecked} events (${p.companyId})`),
          })
          .finally(() => bar.stop());
        const recorded = options.heads === undefined ? {} : readHeads(options.heads);
        const moved: string[] = [];
        for (const [company, head] of Object.entries(recorded)) {
          if (options.company !== undefined && company !== options.company) continue;
          const now = await verifier.hashAt(company, head.chainIndex);
          if (now !== head.hash) {
            moved.push(
              `BREAK company=${company} chain_index=${head.chainIndex}: the link recorded in ${options.heads} on ` +
                `${head.recordedAt} ${now === null ? 'is gone' : 'holds another hash now'}: the chain was sealed again`,
            );
          }
        }
        const pending = report.pending > 0 ? `; ${report.pending} recent event(s) not sealed yet` : '';
        if (!report.keyed) {
          out('note: the chain is not keyed yet (the first sealer pass keys it): its links are checked unkeyed');
        }
        if (report.ok && moved.length === 0) {
          if (options.heads !== undefined) {
            const heads = await verifier.heads(options.company);
            writeHeads(options.heads, recorded, heads);
            out(`recorded the newest link of ${heads.length} company(ies) in ${options.heads}`);
          }
          out(`ok: ${report.eventsChecked} event(s) of ${report.companiesChecked} company(ies), no break${pending}`);
          return;
        }
        for (const b of report.breaks) {
          const where = `${b.chainIndex === null ? 'unsealed' : `chain_index=${b.chainIndex}`} position=${b.position ?? '-'}`;
          out(`BREAK company=${b.companyId} event=${b.eventId} ${where}: ${b.reason}`);
        }
        for (const line of moved) out(line);
        throw new ChainBroken(report.breaks.length + moved.length);
      });
    });

  program
    .command('webhook-secret')
    .description("print the secret a company's webhook receiver checks X-Signature with (HMAC-SHA256 of the body)")
    .requiredOption('--company <id>', 'the company')
    .action((options: { company: string }) => {
      assertCompanyId(options.company);
      out(webhookSecretText(config(), options.company));
    });

  const db = program.command('db').description('the database');
  db.command('migrate')
    .description('run pending migrations (under the advisory lock), as MIGRATION_DATABASE_URL’s role when it is set')
    .action(async () => {
      const cfg = config();
      // With the owner's URL it connects as the owner only: on a new database the application's
      // role does not exist yet (`db grant-app-role`, run next, creates it).
      const ran =
        cfg.migrationDatabaseUrl === undefined
          ? await withDatabase(cfg, (database) => runMigrations(database.dataSource))
          : await migrateAsOwner(cfg.migrationDatabaseUrl, cfg.databaseUrl);
      out(ran.length ? `ran ${ran.length} migration(s): ${ran.join(', ')}` : 'the database is up to date');
    });
  db.command('grant-app-role')
    .description(
      "create DATABASE_URL's role if it does not exist and grant it what the service needs: read and append on the " +
        'audit trail, read and write elsewhere (run as MIGRATION_DATABASE_URL, the owner; again after migrations)',
    )
    .action(async () => {
      const cfg = config();
      if (cfg.databaseUrl === undefined || cfg.migrationDatabaseUrl === undefined) {
        throw new Error(
          'grant-app-role needs DATABASE_URL (the service’s role) and MIGRATION_DATABASE_URL (the owner)',
        );
      }
      const role = roleOfUrl(cfg.databaseUrl);
      if (role === null) throw new Error('DATABASE_URL names no user: the role to grant is its user name');
      const owner = await Database.open({
        url: cfg.migrationDatabaseUrl,
        dataDir: cfg.dataDir,
        role: 'client',
        poolSize: 1,
      });
      try {
        const grant = await grantAppRole(owner.dataSource, role, {
          password: decodeURIComponent(new URL(cfg.databaseUrl).password) || undefined,
        });
        out(
          `${grant.created ? 'created the role' : 'the role'} ${role}${grant.created ? '' : ' exists (its password is left as it is)'}; ` +
            'granted: read and append on events, event_seals, event_chain_anchors, company_deletions; read, append and re-wrap on ' +
            'event_chain_keys; read on migrations; read and write on every other table, now and in later migrations',
        );
      } finally {
        await owner.close();
      }
    });

  program
    .command('kek')
    .description('the key-encryption key that wraps the company DEKs (KEK_SOURCE)')
    .command('rotate')
    .description(
      "re-wrap every company's DEK under a new KEK (the local keyring gets a new KEK version first); tokens stay as they are",
    )
    .action(async () => {
      const cfg = config();
      await withCliContext(cfg, async (app) => {
        await migrate(cfg, app.get(DataSource));
        const bar = progressReport(progress, 'kek rotate', { every: 100 });
        const result = await rotateKek(app.get(Kms), app.get(WrappedDekRepository), {
          onProgress: (examined, companyId) => bar.update(examined, null, `DEK(s) examined (${companyId})`),
        }).finally(() => bar.stop());
        out(
          `KEK ${result.kekId}: ${result.rewrapped} re-wrapped, ${result.alreadyCurrent} already current, ` +
            `${result.skipped} changed meanwhile, ${result.failed.length} failed (of ${result.total})`,
        );
        const chain = await app.get(EventChainKeys).rewrap();
        out(
          `event chain key: ${chain.rewrapped} version(s) re-wrapped, ${chain.alreadyCurrent} already current, ` +
            `${chain.failed.length} failed (of ${chain.total})`,
        );
        const failures = [
          ...(result.failed.length > 0 ? [`the DEK of ${result.failed.join(', ')}`] : []),
          ...(chain.failed.length > 0 ? [`the event chain key version(s) ${chain.failed.join(', ')}`] : []),
        ];
        if (failures.length > 0) throw new Error(`could not re-wrap ${failures.join('; ')}`);
      });
    });

  program
    .command('history')
    .description("the company's booking history at its provider")
    .command('import <company>')
    .description(
      'read the last 12 months of bookings (resuming an interrupted read) and refresh the suggestions, with a progress bar',
    )
    .option('--actor <email>', 'who asks, as the audit trail names them', 'cli')
    .action(async (companyId: string, options: { actor: string }) => {
      const { importHistoryNow } = await import('./patterns/import-history-now');
      await importHistoryNow(config(), companyId, options.actor, out, progress);
    });

  program
    .command('console')
    .description('the web console')
    .command('link')
    .description(
      'print a one-time login link to the web console (valid 5 minutes) for a person of a company, as the gateway would ask for one',
    )
    .requiredOption('--company <id>', 'the company')
    .requiredOption('--sub <email>', 'the person (their email, as the gateway’s token names them)')
    .requiredOption('--role <role>', 'manager | accountant | admin', parseChoice<Role>(isRole, 'role'))
    .action(async (options: { company: string; sub: string; role: Role }) => {
      assertCompanyId(options.company);
      const cfg = config();
      await withCliContext(cfg, async (app) => {
        if (!(await app.get(CompanyRepository).exists(options.company))) {
          throw new Error(`no company "${options.company}"`);
        }
        const link = await app.get(ConsoleAccess).issueLink({
          actor: options.sub,
          company: options.company,
          channel: 'web',
          role: options.role,
          permissions: [...ROLE_PERMISSIONS[options.role]],
          tokenExpiresAt: new Date(),
        });
        out(consoleLoginUrl(cfg.publicUrl, link.secret));
      });
    });

  program
    .command('checks')
    .description(`the daily check (${DAILY_CHECKS.map((check) => check.title.toLowerCase()).join(', ')})`)
    .command('run')
    .description("run today's daily check now, with a progress bar; companies already checked today are skipped")
    .option('--company <id>', 'only this company')
    .option('--force', 'run again for today the companies already checked (their results are posted again)')
    .action(async (options: { company?: string; force?: boolean }) => {
      const { runDailyCheckNow } = await import('./daily-check/run-daily-check-now');
      const summary = await runDailyCheckNow(
        config(),
        { companyId: options.company, force: options.force },
        out,
        progress,
      );
      if (summary.failed > 0)
        throw new Error(`the daily check failed for ${summary.failed} compan${summary.failed === 1 ? 'y' : 'ies'}`);
    });

  return program;
}

async function main(): Promise<void> {
  // Exit on a signal through process.exit, whose exit hook stops an embedded server this command started.
  process.once('SIGINT', () => process.exit(130));
  process.once('SIGTERM', () => process.exit(143));
  loadDotEnv();
  let config: AppConfig | undefined;
  const program = buildCli(() => (config ??= loadConfig()));
  try {
    await program.parseAsync(process.argv);
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === 'commander.helpDisplayed' || code === 'commander.version' || code === 'commander.help') return;
    if (code?.startsWith('commander.')) process.exit(2);
    // A database error names where the CLI looked (DATABASE_URL or the embedded default), in one line.
    const message =
      (config && databaseErrorLine(error, config)) ??
      (error instanceof ConfigError || error instanceof DomainError || error instanceof Error
        ? error.message
        : String(error));
    process.stderr.write(`error: ${message}\n`);
    process.exit(error instanceof ChainBroken ? error.exitCode : error instanceof ConfigError ? 78 : 1); // 78: EX_CONFIG
  }
}

if (require.main === module) void main();
