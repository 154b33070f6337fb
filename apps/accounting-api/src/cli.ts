import 'reflect-metadata';
import { Command, InvalidArgumentError } from 'commander';
import {
  assertCompanyId,
  assertCompanyName,
  isChannel,
  isPermission,
  isRole,
  DomainError,
  type Channel,
  type Permission,
  type Role,
} from '@app/domain';
import { Database, TypeOrmCompanyRepository, runMigrations } from '@app/persistence';
import { ConfigError, loadConfig, type AppConfig } from './config/app-config';
import { ensureDevKeys, rotateDevKeys, signDevToken } from './auth/dev-keys';

/**
 * The operators' CLI (contract §5): `npm run cli -- <command>`. With embedded PostgreSQL it goes
 * through the running service's socket when one holds DATA_DIR, and opens the directory itself
 * only when none does.
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

function refuseWithRealJwks(config: AppConfig, what: string): void {
  if (!config.usesDevKeys) {
    throw new Error(
      `${what} works only with the dev key set; this service trusts the gateway JWKS at ${config.gatewayJwks}`,
    );
  }
}

function parseChoice<T extends string>(guard: (v: unknown) => v is T, name: string) {
  return (value: string): T => {
    if (!guard(value)) throw new InvalidArgumentError(`not a valid ${name}`);
    return value;
  };
}

export function buildCli(config: () => AppConfig, out: (line: string) => void = (l) => process.stdout.write(`${l}\n`)): Command {
  const program = new Command('accounting-api').description('Operate the Accounting API').exitOverride();

  const company = program.command('company').description('register and list companies');
  company
    .command('create <id>')
    .requiredOption('--name <name>', 'the company name')
    .description('register a company (a token\'s company_id must name one)')
    .action(async (id: string, options: { name: string }) => {
      assertCompanyId(id);
      assertCompanyName(options.name);
      await withDatabase(config(), async (db) => {
        await runMigrations(db.dataSource);
        const created = await new TypeOrmCompanyRepository(db.dataSource).create({ id, name: options.name });
        if (!created) throw new Error(`a company "${id}" already exists`);
        out(`created company ${id} (${options.name})`);
      });
    });
  company
    .command('list')
    .description('list the registered companies')
    .option('--json', 'print JSON')
    .action(async (options: { json?: boolean }) => {
      await withDatabase(config(), async (db) => {
        await runMigrations(db.dataSource);
        const companies = await new TypeOrmCompanyRepository(db.dataSource).list();
        if (options.json) out(JSON.stringify(companies));
        else for (const c of companies) out(`${c.id}\t${c.name}\t${c.createdAt.toISOString()}`);
      });
    });

  program
    .command('token')
    .description('print a 1-hour development token signed with the dev key set')
    .requiredOption('--company <id>', 'company_id')
    .requiredOption('--role <role>', 'employee | manager | accountant | admin', parseChoice<Role>(isRole, 'role'))
    .requiredOption('--sub <email>', 'the employee email (sub)')
    .option('--channel <channel>', 'slack | discord | teams | web | email', parseChoice<Channel>(isChannel, 'channel'), 'slack')
    .option('--permissions <list>', 'comma-separated permission groups (default: all the role may hold)', (value: string) => {
      const list = value.split(',').map((p) => p.trim()).filter(Boolean);
      if (!list.every(isPermission)) throw new InvalidArgumentError('unknown permission group');
      return list as Permission[];
    })
    .action((options: { company: string; role: Role; sub: string; channel: Channel; permissions?: Permission[] }) => {
      const cfg = config();
      refuseWithRealJwks(cfg, 'token');
      ensureDevKeys(cfg.dataDir);
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
    });

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
    .command('db')
    .description('the database')
    .command('migrate')
    .description('run pending migrations (under the advisory lock)')
    .action(async () => {
      await withDatabase(config(), async (db) => {
        const ran = await runMigrations(db.dataSource);
        out(ran.length ? `ran ${ran.length} migration(s): ${ran.join(', ')}` : 'the database is up to date');
      });
    });

  return program;
}

async function main(): Promise<void> {
  const program = buildCli(() => loadConfig());
  try {
    await program.parseAsync(process.argv);
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === 'commander.helpDisplayed' || code === 'commander.version' || code === 'commander.help') return;
    if (code?.startsWith('commander.')) process.exit(2);
    const message =
      error instanceof ConfigError || error instanceof DomainError || error instanceof Error ? error.message : String(error);
    process.stderr.write(`error: ${message}\n`);
    process.exit(1);
  }
}

if (require.main === module) void main();
