import { DailyCheckRunCounts1764255000001 } from '../migrations/1764255000001-daily-check-run-counts';
import { createCompany, openIsolatedDatabase, type IsolatedDatabase } from '../testing/test-database';
import { TypeOrmDailyCheckRuns } from './typeorm-daily-check-runs';

// The migration is taken down and up again: a database of its own.
let isolated: IsolatedDatabase;

beforeAll(async () => {
  isolated = await openIsolatedDatabase('daily_check_counts');
});

afterAll(async () => {
  await isolated.dispose();
});

async function migrate(direction: 'up' | 'down'): Promise<void> {
  const runner = isolated.database.dataSource.createQueryRunner();
  try {
    await new DailyCheckRunCounts1764255000001()[direction](runner);
  } finally {
    await runner.release();
  }
}

describe('DailyCheckRunCounts migration', () => {
  it('keeps the counts of runs stored one column per check, under the checks’ ids, and gives them back', async () => {
    const { dataSource } = isolated.database;
    const company = await createCompany(isolated.database);
    await migrate('down');
    await dataSource.query(
      `INSERT INTO daily_check_runs (company_id, day, status, attempts, missing_receipts, overdue_invoices, items_found, created_at)
       VALUES ($1, '2026-11-19', 'succeeded', 1, 2, 1, 3, now()),
              ($1, '2026-11-20', 'failed', 1, NULL, NULL, NULL, now())`,
      [company],
    );

    await migrate('up');

    const runs = await new TypeOrmDailyCheckRuns(dataSource).history({ companyId: company, limit: 10 });
    expect(runs.map((run) => [run.day, run.counts, run.itemsFound])).toEqual([
      ['2026-11-20', null, null],
      ['2026-11-19', { missingReceipts: 2, overdueInvoices: 1 }, 3],
    ]);

    await migrate('down');
    expect(
      await dataSource.query(
        'SELECT day::text AS day, missing_receipts, overdue_invoices FROM daily_check_runs WHERE company_id = $1 ORDER BY day',
        [company],
      ),
    ).toEqual([
      { day: '2026-11-19', missing_receipts: 2, overdue_invoices: 1 },
      { day: '2026-11-20', missing_receipts: null, overdue_invoices: null },
    ]);
    await migrate('up');
  });
});
