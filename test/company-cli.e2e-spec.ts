import { randomBytes, randomUUID } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Database, TypeOrmEventStore } from '@app/persistence';
import { aChainEvent } from '@app/testing';
import { buildCli } from '../apps/accounting-api/src/cli';
import { loadConfig, type AppConfig } from '../apps/accounting-api/src/config/app-config';
import { openIsolatedDatabase } from '../libs/persistence/src/testing/test-database';

describe('npm run cli -- company', () => {
  let dataDir: string;
  let config: AppConfig;
  let database: Database;

  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'acct-company-cli-'));
    config = loadConfig({ DATABASE_URL: process.env.DATABASE_URL, DATA_DIR: dataDir, LOG_LEVEL: 'silent' });
    database = await Database.open({ url: process.env.DATABASE_URL, dataDir, role: 'client', poolSize: 2 });
  });

  afterAll(async () => {
    await database.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  async function cli(cfg: AppConfig, ...args: string[]): Promise<string[]> {
    const lines: string[] = [];
    await buildCli(
      () => cfg,
      (line) => lines.push(line),
    ).parseAsync(['node', 'cli', ...args]);
    return lines;
  }

  const newCompanyId = () => `cli-${randomBytes(5).toString('hex')}`;

  it('deletes a company and logs who deleted it; the log outlives the company', async () => {
    const company = newCompanyId();
    await cli(config, 'company', 'create', company, '--name', 'Cli AS');

    expect(await cli(config, 'company', 'delete', company, '--yes', '--actor', 'ops@example.no')).toEqual([
      `deleted company ${company}; its DEK is destroyed`,
    ]);

    expect((await cli(config, 'company', 'list', '--json')).join('')).not.toContain(company);
    const log = JSON.parse((await cli(config, 'company', 'deletions', '--json')).join('')) as Array<
      Record<string, unknown>
    >;
    expect(log.filter((d) => d.companyId === company)).toEqual([
      {
        id: expect.any(String),
        companyId: company,
        companyName: 'Cli AS',
        actor: 'ops@example.no',
        deletedAt: expect.any(String),
        auditEventsKept: 0,
      },
    ]);
    expect(await cli(config, 'company', 'deletions')).toContainEqual(
      expect.stringMatching(new RegExp(`\\t${company}\\tCli AS\\tops@example.no\\trecord deleted$`)),
    );
  });

  it('names the OS user as the operator when no --actor is given', async () => {
    const company = newCompanyId();
    await cli(config, 'company', 'create', company, '--name', 'Cli AS');

    await cli(config, 'company', 'delete', company, '--yes');

    const log = JSON.parse((await cli(config, 'company', 'deletions', '--json')).join('')) as Array<{
      companyId: string;
      actor: string;
    }>;
    expect(log.find((d) => d.companyId === company)?.actor).toBe(os.userInfo().username);
  });

  it('keeps the record of a company with audit events, and says so', async () => {
    const company = newCompanyId();
    await cli(config, 'company', 'create', company, '--name', 'Kept AS');
    const chain = randomUUID();
    await new TypeOrmEventStore(database.dataSource.manager).append([aChainEvent(company, chain, 1)]);

    expect(await cli(config, 'company', 'delete', company, '--yes', '--actor', 'ops@example.no')).toEqual([
      `destroyed the DEK and the provider connection of ${company}; the company record stays with its 1 audit event(s)`,
    ]);
    expect((await cli(config, 'company', 'list', '--json')).join('')).toContain(company);
    expect(await cli(config, 'company', 'deletions')).toContainEqual(
      expect.stringMatching(
        new RegExp(`\\t${company}\\tKept AS\\tops@example.no\\trecord kept with 1 audit event\\(s\\)$`),
      ),
    );
  });

  it('refuses an unknown company, and a blank operator, logging nothing', async () => {
    const company = newCompanyId();
    await expect(cli(config, 'company', 'delete', company, '--yes')).rejects.toThrow(/was not found/);
    await cli(config, 'company', 'create', company, '--name', 'Cli AS');
    await expect(cli(config, 'company', 'delete', company, '--yes', '--actor', ' ')).rejects.toThrow(/must be named/);
    expect((await cli(config, 'company', 'list', '--json')).join('')).toContain(company);
    expect((await cli(config, 'company', 'deletions', '--json')).join('')).not.toContain(company);
  });

  it('lists companies without running migrations', async () => {
    const empty = await openIsolatedDatabase('cli_list', { migrate: false });
    try {
      const url = (empty.database.dataSource.options as { url: string }).url;
      const unmigrated = loadConfig({ DATABASE_URL: url, DATA_DIR: dataDir, LOG_LEVEL: 'silent' });
      await expect(cli(unmigrated, 'company', 'list')).rejects.toThrow(/companies/);
      expect(await empty.database.dataSource.query(`SELECT to_regclass('migrations') AS migrations`)).toEqual([
        { migrations: null },
      ]);
    } finally {
      await empty.dispose();
    }
  });
});
