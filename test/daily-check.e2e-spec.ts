import { Writable } from 'node:stream';
import { DataSource } from 'typeorm';
import { DailyCheckRunner } from '@app/application';
import { runDailyCheckNow } from '../apps/accounting-api/src/daily-check/run-daily-check-now';
import { DailyCheckScheduler } from '../apps/accounting-api/src/daily-check/daily-check.scheduler';
import { HttpMetrics } from '../apps/accounting-api/src/metrics/http-metrics';
import { ManualClock } from './support/manual-clock';
import { hostSandbox, startJobsApp, type HostedSandbox, type JobsApp } from './support/jobs-app';
import { isolatedTestDatabase, type IsolatedTestDatabase } from './support/test-database';

const JOBS_ENV = { DAILY_CHECK_RETRY_MS: '3600000', DAILY_CHECK_MAX_ATTEMPTS: '3', DAILY_CHECK_ITEMS_PER_MESSAGE: '5' };

function at(day: string, time: string): Date {
  return new Date(`${day}T${time}Z`);
}

const DAY_MS = 86_400_000;
const today = new Date().toISOString().slice(0, 10);
const tomorrow = new Date(Date.parse(`${today}T00:00:00Z`) + DAY_MS).toISOString().slice(0, 10);

interface RunRow {
  company_id: string;
  day: string;
  status: string;
  attempts: number;
  items_found: number | null;
  error: string | null;
}

describe('the daily check at 07:00 UTC (docs/api.md §4.6)', () => {
  let hosted: HostedSandbox;
  const apps: JobsApp[] = [];
  let companies: string[];
  let failing: string;
  let database: IsolatedTestDatabase;
  // One time for the instances and the sandbox: Tripletex ends a session at Oslo midnight of the
  // date the service asks for, so two clocks a few hours apart disagree on which day it is.
  const clock = new ManualClock(at(today, '07:00:00'));

  beforeAll(async () => {
    // The job checks every connected company: this suite gets a database of its own.
    database = await isolatedTestDatabase('daily');
    hosted = await hostSandbox({
      seed: 31,
      companies: 6,
      entriesPerCompany: 300,
      invoicesPerCompany: 40,
      now: () => clock.now(),
    });
    const first = await startJobsApp({
      hosted,
      databaseUrl: database.url,
      jobsEnv: JOBS_ENV,
      clock,
    });
    apps.push(first);
    for (let i = 0; i < 2; i++) {
      apps.push(
        await startJobsApp({
          hosted,
          databaseUrl: database.url,
          jobsEnv: JOBS_ENV,
          dataDir: first.dataDir,
          clock,
        }),
      );
    }
    companies = [];
    for (let i = 1; i <= 4; i++) {
      const company = await first.newCompany('daily');
      await first.connect(company, i % 2 === 0 ? 'fiken' : 'tripletex', i);
      companies.push(company);
    }
    failing = await first.newCompany('daily-fail');
    await first.connect(failing, 'fiken', 5);
  });

  afterAll(async () => {
    for (const app of apps.reverse()) await app.close();
    await hosted?.close();
    await database?.dispose();
  });

  const mine = () => [...companies, failing];

  async function runs(day: string): Promise<RunRow[]> {
    return apps[0].query<RunRow>(
      `SELECT company_id, day::text AS day, status, attempts, items_found, error FROM daily_check_runs
        WHERE day = $1::date AND company_id = ANY($2) ORDER BY company_id`,
      [day, mine()],
    );
  }

  async function posted(
    day: string,
  ): Promise<{ company_id: string; target: string; payload: Record<string, unknown> }[]> {
    return apps[0].query(
      `SELECT company_id, target, payload FROM notification_outbox
        WHERE kind = 'daily_check' AND company_id = ANY($1) AND payload->>'date' = $2 ORDER BY company_id`,
      [mine(), day],
    );
  }

  it('runs once per company however many instances start the 07:00 job; a failing company does not stop the others', async () => {
    const slug = hosted.sandbox.control.for('fiken').company(5).slug;
    const outage = hosted.sandbox.control.addFault({
      provider: 'fiken',
      companyId: slug,
      errorRate: 1,
      errorStatus: 500,
    });
    try {
      const summaries = await Promise.all(apps.map((app) => app.app.get(DailyCheckRunner).runLatestSlot()));
      expect(summaries.reduce((sum, s) => sum + s.succeeded, 0)).toBeGreaterThanOrEqual(companies.length);
    } finally {
      hosted.sandbox.control.removeFault(outage.id);
    }

    const rows = await runs(today);
    expect(rows).toHaveLength(5);
    expect(rows.filter((r) => companies.includes(r.company_id)).map((r) => [r.status, r.attempts])).toEqual(
      companies.map(() => ['succeeded', 1]),
    );
    const failed = rows.find((r) => r.company_id === failing)!;
    expect(failed).toMatchObject({ status: 'failed', attempts: 1 });
    expect(failed.error).toBeTruthy();

    const messages = await posted(today);
    expect(messages.map((m) => m.company_id).sort()).toEqual([...companies].sort());
    for (const message of messages) {
      expect(message.target).toBe('invoices');
      expect(message.payload).toMatchObject({ date: today, missingReceiptsFrom: expect.any(String) });
      expect(['tripletex', 'fiken']).toContain(message.payload.provider);
      expect((message.payload.missingReceipts as unknown[]).length).toBeLessThanOrEqual(5);
      expect(message.payload.missingReceiptsCount).toBeGreaterThanOrEqual(
        (message.payload.missingReceipts as unknown[]).length,
      );
    }

    // Running the slot again changes nothing: the day's runs exist and succeeded.
    await apps[1].app.get(DailyCheckRunner).runLatestSlot();
    expect(await posted(today)).toHaveLength(companies.length);

    const text = (await Promise.all(apps.map((app) => app.app.get(HttpMetrics).registry.metrics()))).join('\n');
    expect(text).toMatch(/daily_check_runs_total\{provider="fiken",outcome="failed"\} [1-9]/);
    expect(text).toMatch(/daily_check_runs_total\{provider="tripletex",outcome="succeeded"\} [1-9]/);
    expect(text).toMatch(/daily_check_items_found_total/);
  });

  it('retries the failed company later, bounded, and posts its results once it works', async () => {
    clock.set(at(today, '07:30:00'));
    await apps[2].app.get(DailyCheckRunner).resume();
    expect((await runs(today)).find((r) => r.company_id === failing)).toMatchObject({ status: 'failed', attempts: 1 }); // not yet due
    clock.set(at(today, '08:01:00'));
    const summary = await apps[2].app.get(DailyCheckRunner).resume();
    expect(summary.succeeded).toBeGreaterThanOrEqual(1);
    expect(summary.failures.map((f) => f.companyId)).not.toContain(failing);
    expect((await runs(today)).find((r) => r.company_id === failing)).toMatchObject({
      status: 'succeeded',
      attempts: 2,
    });
    expect((await posted(today)).filter((m) => m.company_id === failing)).toHaveLength(1);
  });

  it('runs now from the CLI (`checks run --company`), with a progress line, and refuses an unknown company', async () => {
    const company = await apps[0].newCompany('daily-cli');
    await apps[0].connect(company, 'tripletex', 0);
    const lines: string[] = [];
    const progress: string[] = [];
    const stream = new Writable({
      write(chunk: Buffer, _encoding, done) {
        progress.push(chunk.toString());
        done();
      },
    });

    const summary = await runDailyCheckNow(apps[0].config, { companyId: company }, (line) => lines.push(line), stream);

    expect(summary).toMatchObject({ total: 1, succeeded: 1, failed: 0 });
    // Not a terminal: plain lines.
    expect(progress.join('')).toBe(`checks: 1/1 ${company} ok\n`);
    expect(lines[0]).toMatch(/^daily check \d{4}-\d{2}-\d{2}: 1 succeeded, 0 failed, \d+ items found \(1 due\)$/);
    const [row] = (await apps[0].app
      .get(DataSource)
      .query('SELECT status FROM daily_check_runs WHERE company_id = $1', [company])) as { status: string }[];
    expect(row.status).toBe('succeeded');

    await expect(
      runDailyCheckNow(apps[0].config, { companyId: 'no-such-company' }, () => undefined, stream),
    ).rejects.toThrow('company no-such-company was not found');
  });

  it('catches up a day missed while the service was down when it starts', async () => {
    clock.set(at(tomorrow, '09:15:00'));
    const late = await startJobsApp({
      hosted,
      databaseUrl: database.url,
      jobsEnv: { ...JOBS_ENV, DAILY_CHECK_ENABLED: 'true' },
      dataDir: apps[0].dataDir,
      clock,
    });
    apps.push(late);
    const deadline = Date.now() + 30_000;
    while (
      Date.now() < deadline &&
      (await runs(tomorrow)).filter((r) => r.status === 'succeeded').length < companies.length
    ) {
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    const rows = await runs(tomorrow);
    expect(rows.filter((r) => companies.includes(r.company_id)).every((r) => r.status === 'succeeded')).toBe(true);
    expect(late.app.get(DailyCheckScheduler)).toBeDefined();
    expect(
      (await posted(tomorrow))
        .map((m) => m.company_id)
        .filter((c) => companies.includes(c))
        .sort(),
    ).toEqual([...companies].sort());
  });
});
