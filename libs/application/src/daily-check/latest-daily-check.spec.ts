import { createInMemoryAdapters } from '@app/testing';
import { LatestDailyCheck } from './latest-daily-check.query';

describe('LatestDailyCheck', () => {
  it("gives the company's newest run, and null before the first", async () => {
    const adapters = createInMemoryAdapters();
    const latest = new LatestDailyCheck(adapters.dailyChecks.runs);
    await adapters.companies.create({ id: 'acme', name: 'Acme AS' });
    await adapters.companies.create({ id: 'globex', name: 'Globex AS' });

    expect(await latest.execute('acme')).toBeNull();

    const now = new Date('2026-11-20T07:00:00Z');
    await adapters.dailyChecks.runs.schedule('2026-11-19', now, 'acme');
    await adapters.dailyChecks.runs.schedule('2026-11-20', now, 'acme');
    await adapters.dailyChecks.runs.schedule('2026-11-21', now, 'globex');

    expect(await latest.execute('acme')).toMatchObject({ companyId: 'acme', day: '2026-11-20', status: 'pending' });
  });
});
