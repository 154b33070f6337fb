import type { DailyCheckRun } from '@app/application';
import { renderChecksPage, type ChecksPageView } from './checks.view';
import type { ConsoleViewer } from './console-page';

const viewer: ConsoleViewer = {
  identity: {
    actor: 'mona@example.no',
    company: 'c1',
    channel: 'web',
    role: 'manager',
    permissions: ['monitor'],
    tokenExpiresAt: new Date('2026-11-20T10:00:00Z'),
  },
  csrf: 'csrf-token',
  companyName: 'Fjord AS',
  locale: 'en-GB',
};

const run: DailyCheckRun = {
  companyId: 'c1',
  day: '2026-11-20',
  status: 'failed',
  attempts: 3,
  provider: 'tripletex',
  startedAt: new Date('2026-11-20T07:00:00Z'),
  finishedAt: new Date('2026-11-20T07:01:00Z'),
  counts: null,
  itemsFound: null,
  error: '<b>provider down</b>',
  nextAttemptAt: null,
};

function render(view: Partial<ChecksPageView>): string {
  return renderChecksPage({ viewer, latest: null, result: null, shown: 200, ...view }).value;
}

describe('renderChecksPage', () => {
  it('says when the daily check has not run yet, and offers both checks', () => {
    const page = render({});
    expect(page).toContain('The daily check has not run for this company yet.');
    expect(page).toContain('href="/console/checks?run=missing-receipts"');
    expect(page).toContain('href="/console/checks?run=overdue-invoices"');
    expect(page).toContain('aria-current="page">Checks</a>');
  });

  it('shows the latest run with its error escaped', () => {
    const page = render({ latest: run });
    expect(page).toContain('20 Nov 2026');
    expect(page).toContain('<dd class="bad">&lt;b&gt;provider down&lt;/b&gt;</dd>');
    expect(page).not.toContain('<b>provider down</b>');
    // The state in words, the finish in Oslo time (UTC+1 in November).
    expect(page).toMatch(/<dd class="bad" data-run="failed">\s*Failed\s*<\/dd>/);
    expect(page).toContain('<time datetime="2026-11-20T07:01:00.000Z">20 Nov 2026, 08:01</time>');
  });

  it('lists the postings without a receipt, escaping their text, and says when it shows only the first ones', () => {
    const page = render({
      result: {
        check: 'missing-receipts',
        report: {
          provider: 'tripletex',
          count: 250,
          truncated: true,
          from: '2026-10-21',
          to: '2026-11-20',
          items: [
            {
              id: 'v1',
              number: '17',
              date: '2026-11-02',
              description: '<script>x</script>',
              amount: '1234.50',
              currency: 'NOK',
            },
          ],
        },
      },
    });
    expect(page).toContain('250 found, the first 200 shown.');
    expect(page).toContain('&lt;script&gt;x&lt;/script&gt;');
    expect(page).not.toContain('<script>x</script>');
    expect(page).toMatch(/NOK\s1,234\.50/);
  });

  it('totals the overdue invoices by currency', () => {
    const page = render({
      result: {
        check: 'overdue-invoices',
        report: {
          provider: 'fiken',
          count: 1,
          truncated: false,
          asOf: '2026-11-20',
          totalOutstanding: [{ currency: 'NOK', amount: '500.00' }],
          items: [
            {
              id: 'i1',
              number: '1001',
              customerName: 'Kunde & Co',
              issueDate: '2026-10-01',
              dueDate: '2026-10-15',
              daysOverdue: 36,
              amount: '500.00',
              outstanding: '500.00',
              currency: 'NOK',
            },
          ],
        },
      },
    });
    expect(page).toContain('Overdue customer invoices on 20 Nov 2026');
    expect(page).toMatch(/outstanding NOK\s500\.00/);
    expect(page).toContain('Kunde &amp; Co');
    expect(page).toContain('<td data-label="Days overdue">36</td>');
  });
});
