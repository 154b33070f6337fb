import * as path from 'node:path';
import { PassThrough } from 'node:stream';
import { CompanyRepository, ProviderConnectionRepository } from '@app/domain';
import { buildCli } from '../apps/accounting-api/src/cli';
import { importHistoryNow } from '../apps/accounting-api/src/patterns/import-history-now';
import { DemoConnections } from '../apps/accounting-api/src/sandbox/demo-connections';
import { loadConfig, type AppConfig } from '../apps/accounting-api/src/config/app-config';
import { hostSandbox, sandboxEnv, startJobsApp, type HostedSandbox, type JobsApp } from './support/jobs-app';
import { isolatedTestDatabase, type IsolatedTestDatabase } from './support/test-database';
import { startTestApp, type TestApp } from './support/test-app';

/**
 * The CLI beside a running service: the same database and DATA_DIR, and every background job
 * switched on in the CLI's configuration (as outside the tests, where they are on by default). A
 * command acts on the service's state, starts none of the loops, and reports what it did itself.
 */
describe('the CLI beside a running service', () => {
  let database: IsolatedTestDatabase;
  let hosted: HostedSandbox;
  let service: JobsApp;
  let cliConfig: AppConfig;

  async function cli(...args: string[]): Promise<string[]> {
    const lines: string[] = [];
    await buildCli(
      () => cliConfig,
      (line) => lines.push(line),
    ).parseAsync(['node', 'cli', ...args]);
    return lines;
  }

  beforeAll(async () => {
    // `checks run` checks every connected company: this suite gets a database of its own.
    database = await isolatedTestDatabase('cli');
    hosted = await hostSandbox({ seed: 7, companies: 2, entriesPerCompany: 20, invoicesPerCompany: 5 });
    service = await startJobsApp({ hosted, databaseUrl: database.url });
    cliConfig = loadConfig({
      DATABASE_URL: database.url,
      DATA_DIR: service.dataDir,
      GATEWAY_JWKS: path.join(service.dataDir, 'gateway-jwks.json'),
      LOG_LEVEL: 'silent',
      ...sandboxEnv(hosted),
      EXECUTOR_ENABLED: 'true',
      EXECUTOR_POLL_MS: '50',
      DAILY_CHECK_ENABLED: 'true',
      OUTBOX_DISPATCH_ENABLED: 'true',
    });
  });

  afterAll(async () => {
    await service?.close();
    await hosted?.close();
    await database?.dispose();
  });

  it('acts on the service’s state: a company it creates is one the service knows', async () => {
    await cli('company', 'create', 'cli-beside', '--name', 'Beside AS');

    expect(await service.app.get(CompanyRepository).exists('cli-beside')).toBe(true);
    expect((await cli('company', 'list')).join('\n')).toContain('cli-beside\tBeside AS');
  });

  it('runs `checks run` itself and prints what it ran; no executor, scheduler or dispatcher runs beside it', async () => {
    const due = await service.newCompany('cli-due');
    await service.connect(due, 'tripletex', 0);
    const queued = await service.newCompany('cli-queued');
    await service.connect(queued, 'tripletex', 1);
    const proposal = await service.approvedProposal(queued);
    const outboxBefore = await service.query<{ n: string }>('SELECT count(*)::text AS n FROM notification_outbox');

    const lines = await cli('checks', 'run', '--company', due);

    expect(lines[0]).toMatch(/^daily check \d{4}-\d{2}-\d{2}: 1 succeeded, 0 failed, \d+ items found \(1 due\)$/);
    // Only the command's own company was checked: no start-up catch-up claimed the others.
    expect(await service.query('SELECT company_id, status FROM daily_check_runs')).toEqual([
      { company_id: due, status: 'succeeded' },
    ]);
    // No executor ran in the CLI: the approved proposal still waits for the service's.
    expect(await service.query('SELECT status FROM proposals WHERE id = $1', [proposal.id])).toEqual([
      { status: 'APPROVED' },
    ]);
    // Queued at its approval, never tried.
    expect(await service.query('SELECT proposal_id, state, attempts FROM proposal_executions')).toEqual([
      { proposal_id: proposal.id, state: 'pending', attempts: 0 },
    ]);
    // No dispatcher ran in the CLI: the daily check's message waits in the outbox, untried.
    const outbox = await service.query<{ attempts: number; delivered_at: Date | null }>(
      'SELECT attempts, delivered_at FROM notification_outbox WHERE company_id = $1',
      [due],
    );
    expect(outbox).toEqual([{ attempts: 0, delivered_at: null }]);
    expect(Number(outboxBefore[0].n)).toBe(0);
  });

  it('says why nothing is due when `checks run` finds the day done, and runs it again with --force', async () => {
    const [company] = (
      await service.query<{ company_id: string }>("SELECT company_id FROM daily_check_runs WHERE status = 'succeeded'")
    ).map((row) => row.company_id);

    expect(await cli('checks', 'run', '--company', company)).toEqual([
      expect.stringMatching(/^daily check \d{4}-\d{2}-\d{2}: 0 succeeded, 0 failed, 0 items found \(0 due\)$/),
      '  nothing due: 1 already run today (--force runs them again)',
    ]);
    expect(await cli('checks', 'run', '--company', company, '--force')).toEqual([
      expect.stringMatching(/^daily check \d{4}-\d{2}-\d{2}: 1 succeeded, 0 failed, \d+ items found \(1 due\)$/),
    ]);
  });
});

describe('the CLI beside a service running the in-process sandbox', () => {
  let database: IsolatedTestDatabase;
  let service: TestApp;
  let cliConfig: AppConfig;

  beforeAll(async () => {
    database = await isolatedTestDatabase('cli_sandbox');
    service = await startTestApp({ env: { DATABASE_URL: database.url, PROVIDER_SANDBOX: 'true' } });
    // `npm start`'s seeding: demo-fiken holds tokens only the service's sandbox issued.
    await service.app.get(DemoConnections).seed();
    cliConfig = loadConfig({
      DATABASE_URL: database.url,
      DATA_DIR: service.dataDir,
      GATEWAY_JWKS: service.jwksFile,
      LOG_LEVEL: 'silent',
      PROVIDER_SANDBOX: 'true',
    });
  });

  afterAll(async () => {
    await service?.close();
    await database?.dispose();
  });

  it('reaches the service’s sandbox: `history import demo-fiken` reads with the service’s grant, which stays connected', async () => {
    const lines: string[] = [];
    const progress = new PassThrough();
    await importHistoryNow(cliConfig, 'demo-fiken', 'ops@demo.no', (line) => lines.push(line), progress);

    expect(lines).toEqual([expect.stringMatching(/^history of demo-fiken \(fiken, .*\): \d+ bookings read/)]);
    // Not a terminal: a line per page read, the last at 100 %.
    const steps = (progress.read() as Buffer).toString().split('\n').filter(Boolean);
    for (const step of steps) expect(step).toMatch(/^history: \d+% \d+ bookings, \d+ pages$/);
    expect(steps[steps.length - 1]).toMatch(/^history: 100% /);
    expect((await service.app.get(ProviderConnectionRepository).find('demo-fiken'))?.status).toBe('connected');
  });
});
