import type { ReimbursementList } from '@app/application';
import { aProposal } from '@app/testing';
import type { ConsoleViewer } from './console-page';
import { renderReimbursementsPage } from './reimbursements.view';

const viewer: ConsoleViewer = {
  identity: {
    actor: 'kari@example.no',
    company: 'c1',
    channel: 'web',
    role: 'accountant',
    permissions: ['solve', 'query'],
    tokenExpiresAt: new Date('2026-11-20T10:00:00Z'),
  },
  csrf: 'the-csrf',
  companyName: 'Fjord AS',
  locale: 'en-GB',
};

const outlay = {
  ...aProposal('EXECUTED', { details: { paidWith: 'employee', merchant: '<b>Meny</b>', amount: 34_555 } }),
  id: 'p-1',
};
const open: ReimbursementList = {
  status: 'open',
  items: [{ proposal: outlay, employee: null, bookedAt: new Date('2026-11-20T10:05:00Z') }],
  nextCursor: null,
  totalsByEmployee: [{ employee: 'ola@example.no', count: 1, amountNok: 34_555 }],
};

function render(list: ReimbursementList, done: 'paid' | null = null): string {
  return renderReimbursementsPage({ viewer, list, done, today: '2026-11-20' }).value;
}

describe('renderReimbursementsPage', () => {
  it('lists what is owed with the totals per employee and a "Mark paid" form carrying the CSRF token', () => {
    const page = render(open);
    expect(page).toContain('Outlays to pay back');
    expect(page).toContain('data-proposal="p-1"');
    expect(page).toMatch(/NOK\s345\.55/);
    expect(page).toContain('ola@example.no');
    expect(page).toContain('action="/console/reimbursements/p-1/paid"');
    expect(page).toContain('name="_csrf" value="the-csrf"');
    expect(page).toContain('name="paidOn" value="2026-11-20"');
    expect(page).toContain('&lt;b&gt;Meny&lt;/b&gt;');
    expect(page).not.toContain('<b>Meny</b>');
    expect(page).toContain('aria-current="page">Reimbursements');
  });

  it('shows those paid back with the day, reference and who marked them, and no form', () => {
    const paid = { paidOn: '2026-11-19', reference: 'TR-7', markedBy: 'kari@example.no', markedAt: new Date() };
    const page = render({
      ...open,
      status: 'paid',
      items: [{ ...open.items[0], proposal: { ...outlay, reimbursement: paid } }],
    });
    expect(page).toContain('Outlays paid back');
    expect(page).toContain('19 Nov 2026 · TR-7 (kari@example.no)');
    expect(page).not.toContain('/paid"');
  });

  it('says when nobody is owed anything, and confirms a mark just made', () => {
    const page = render({ ...open, items: [], totalsByEmployee: [] }, 'paid');
    expect(page).toContain('Nobody is owed anything.');
    expect(page).toContain('Marked paid back.');
  });
});
