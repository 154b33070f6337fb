import { renderSlackMessage, renderText, type DailyCheckPayload } from '@app/notifications';
import { createInMemoryAdapters } from '@app/testing';
import type { MissingReceiptsReport, OverdueInvoicesReport, ProviderChecks } from '../checks/checks';
import type { DailyCheck, DailyCheckContext } from './daily-check';
import { DailyCheckRunner } from './daily-check-runner';
import { NoDailyCheckMetrics } from './daily-check-runs.port';
import { DailyCheckOptions } from './daily-check.options';
import { DAILY_CHECKS } from './daily-checks';

const DAY = '2026-11-20';

const MISSING: MissingReceiptsReport = {
  provider: 'tripletex',
  from: '2026-10-21',
  to: DAY,
  count: 3,
  truncated: true,
  items: [
    { id: 'v-101', number: '412', date: '2026-11-02', description: 'Taxi Oslo', amount: '389.00', currency: 'NOK' },
    { id: 'v-102', number: '413', date: '2026-11-03', description: 'Parking', amount: null, currency: 'NOK' },
  ],
};

const OVERDUE: OverdueInvoicesReport = {
  provider: 'tripletex',
  asOf: DAY,
  count: 1,
  truncated: false,
  totalOutstanding: [{ currency: 'NOK', amount: '12500.00' }],
  items: [
    {
      id: 'i-7',
      number: '10007',
      customerName: 'Nordlys AS',
      issueDate: '2026-10-01',
      dueDate: '2026-11-01',
      daysOverdue: 19,
      amount: '12500.00',
      outstanding: '12500.00',
      currency: 'NOK',
    },
  ],
};

/** The provider's checks, answering with the reports above and noting what they were asked. */
function fakeChecks() {
  const calls: unknown[] = [];
  const checks = {
    missingReceipts: async (...args: unknown[]) => (calls.push(['missingReceipts', ...args]), MISSING),
    overdueInvoices: async (...args: unknown[]) => (calls.push(['overdueInvoices', ...args]), OVERDUE),
  } as unknown as ProviderChecks;
  return { checks, calls };
}

async function aWorld() {
  const adapters = createInMemoryAdapters(`${DAY}T07:00:00.000Z`);
  await adapters.companies.create({ id: 'acme', name: 'Acme AS' });
  await adapters.connections.connect({
    companyId: 'acme',
    grant: { provider: 'tripletex', secret: { kind: 'token', token: 'employee-token' } },
    externalCompanyId: null,
    externalCompanyName: null,
    connectedBy: 'admin@example.com',
  });
  const { checks, calls } = fakeChecks();
  const runner = new DailyCheckRunner(
    adapters.dailyChecks.runs,
    adapters.unitOfWork,
    checks,
    new NoDailyCheckMetrics(),
    adapters.clock,
    new DailyCheckOptions({ serial: true, concurrency: { tripletex: 16 } }),
  );
  return { ...adapters, runner, calls };
}

describe('DailyCheckRunner', () => {
  it('posts the two checks’ results in the message the contract names, field for field', async () => {
    const world = await aWorld();

    expect(await world.runner.runDay(DAY)).toMatchObject({ total: 1, succeeded: 1, itemsFound: 4 });

    expect(world.calls).toEqual([
      ['missingReceipts', 'acme', { from: '2026-10-21', to: DAY, limit: 50 }],
      ['overdueInvoices', 'acme', { asOf: DAY, limit: 50 }],
    ]);
    const [message] = world.notifier.messages('acme');
    expect(message).toMatchObject({ companyId: 'acme', target: 'invoices', kind: 'daily_check' });
    // Serialised, so that the order of the fields is pinned too.
    expect(JSON.stringify(message.payload)).toBe(
      JSON.stringify({
        date: DAY,
        provider: 'tripletex',
        missingReceiptsFrom: '2026-10-21',
        missingReceipts: [
          {
            id: 'v-101',
            number: '412',
            date: '2026-11-02',
            description: 'Taxi Oslo',
            amount: '389.00',
            currency: 'NOK',
          },
          { id: 'v-102', number: '413', date: '2026-11-03', description: 'Parking', amount: '0.00', currency: 'NOK' },
        ],
        missingReceiptsCount: 3,
        overdueInvoices: [
          {
            id: 'i-7',
            invoiceNumber: '10007',
            customer: 'Nordlys AS',
            dueDate: '2026-11-01',
            daysOverdue: 19,
            outstanding: '12500.00',
            currency: 'NOK',
          },
        ],
        overdueInvoicesCount: 1,
        totalOutstanding: [{ currency: 'NOK', amount: '12500.00' }],
      }),
    );
    const [run] = await world.dailyChecks.runs.history({ companyId: 'acme', limit: 1 });
    expect(run).toMatchObject({
      status: 'succeeded',
      counts: { missingReceipts: 3, overdueInvoices: 1 },
      itemsFound: 4,
    });
  });

  describe('with a third check registered in DAILY_CHECKS', () => {
    const seen: DailyCheckContext[] = [];
    const unbookedTransfers: DailyCheck = {
      id: 'unbookedTransfers',
      title: 'Unbooked bank transfers',
      async run(context) {
        seen.push(context);
        return { count: 7, payload: { unbookedTransfers: ['t-1', 't-2'], unbookedTransfersCount: 7 } };
      },
      render(payload) {
        const items = payload.unbookedTransfers as string[] | undefined;
        if (!Array.isArray(items)) return null;
        return {
          listed: items.length,
          summary: `${items.length} unbooked transfers`,
          allClear: 'no unbooked transfers',
          tally: `${items.length} transfers`,
          heading: 'Unbooked <transfers>',
          lines: items,
        };
      },
    };

    beforeEach(() => {
      DAILY_CHECKS.push(unbookedTransfers);
    });

    afterEach(() => {
      DAILY_CHECKS.splice(DAILY_CHECKS.indexOf(unbookedTransfers), 1);
      seen.length = 0;
    });

    it('runs it, stores its count under its id and renders it in the message', async () => {
      const world = await aWorld();

      expect(await world.runner.runDay(DAY)).toMatchObject({ succeeded: 1, itemsFound: 11 });

      expect(seen).toEqual([expect.objectContaining({ companyId: 'acme', day: DAY, lookbackDays: 30, limit: 50 })]);
      const [run] = await world.dailyChecks.runs.history({ companyId: 'acme', limit: 1 });
      expect(run).toMatchObject({
        counts: { missingReceipts: 3, overdueInvoices: 1, unbookedTransfers: 7 },
        itemsFound: 11,
      });
      const [message] = world.notifier.messages('acme');
      expect(message.payload).toMatchObject({ unbookedTransfers: ['t-1', 't-2'], unbookedTransfersCount: 7 });

      const content = { kind: 'daily_check' as const, payload: message.payload as DailyCheckPayload };
      expect(renderText(content)).toBe(
        `Daily check ${DAY} (tripletex): 3 purchases without a receipt since 2026-10-21, 1 overdue invoice, ` +
          '2 unbooked transfers.',
      );
      const blocks = JSON.stringify(renderSlackMessage(content).blocks);
      expect(blocks).toContain('*Unbooked &lt;transfers&gt;*\\n• t-1\\n• t-2');
      expect(blocks).toContain('tripletex · 3 purchases · 1 invoice · 2 transfers');
      expect(blocks).toContain('Missing receipts since 2026-10-21 (2 listed)');
    });

    it('leads with the count of every purchase without a receipt, and links to the console list', () => {
      const payload = {
        date: DAY,
        provider: 'fiken',
        missingReceiptsFrom: '2026-10-21',
        missingReceipts: [
          { id: 'v-1', number: '1', date: '2026-11-02', description: 'Kiwi', amount: '89.00', currency: 'NOK' },
        ],
        missingReceiptsCount: 14,
        missingReceiptsUrl: 'https://books.example/console/checks?run=missing-receipts',
        overdueInvoices: [],
      };
      expect(renderText({ kind: 'daily_check', payload })).toBe(
        `Daily check ${DAY} (fiken): 14 purchases without a receipt since 2026-10-21 ` +
          '(list: https://books.example/console/checks?run=missing-receipts), 0 overdue invoices.',
      );
    });

    it('renders a message written before the check was added without it', () => {
      const payload = {
        date: DAY,
        provider: 'tripletex',
        missingReceiptsFrom: '2026-10-21',
        missingReceipts: [],
        overdueInvoices: [],
      };
      expect(renderText({ kind: 'daily_check', payload })).toBe(
        `Daily check ${DAY} (tripletex): no purchases without a receipt since 2026-10-21, no overdue invoices.`,
      );
    });
  });
});
