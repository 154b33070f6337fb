import { plannedPostings, postingDifferences, type EventsVerification, type Role } from '@app/domain';
import { aProposalHistory } from '@app/testing';
import type { ConsoleViewer } from './console-page';
import { renderProposalPage, renderReviewPage } from './review.view';

function viewerAs(role: Role): ConsoleViewer {
  return {
    identity: {
      actor: 'kari@example.no',
      company: 'acme',
      channel: 'web',
      role,
      permissions: role === 'manager' ? ['monitor'] : ['monitor', 'solve'],
      tokenExpiresAt: new Date('2026-11-20T10:00:00Z'),
    },
    csrf: 'the-csrf',
    companyName: 'Acme AS',
    locale: 'nb-NO',
  };
}

const pending = aProposalHistory('PROPOSED', { details: { merchant: 'Kiosk <b>Bar</b>' } });

describe('renderReviewPage', () => {
  it('gives an accountant approve and reject forms carrying the CSRF token', () => {
    const page = renderReviewPage({
      viewer: viewerAs('accountant'),
      queue: { pending: [pending.proposal], delayed: [], truncated: false, context: null },
      done: null,
    }).value;
    expect(page).toContain(`action="/console/proposals/${pending.proposal.id}/approve"`);
    expect(page).toContain(`action="/console/proposals/${pending.proposal.id}/reject"`);
    expect(page).toContain('name="_csrf" value="the-csrf"');
    expect(page).toContain('Waiting for review (1)');
  });

  it('shows a manager the queue without the deciding forms', () => {
    const page = renderReviewPage({
      viewer: viewerAs('manager'),
      queue: { pending: [pending.proposal], delayed: [], truncated: true, context: null },
      done: 'approved',
    }).value;
    expect(page).not.toContain('/approve"');
    expect(page).toContain('Only an accountant or an administrator can approve or reject proposals.');
    expect(page).toContain('Waiting for review (1+)');
    expect(page).toContain('Approved. It is booked in the accounting system within a minute.');
  });

  it('links a proposal a reason names, says the route and the kind in words, and shows Oslo time', () => {
    const earlier = '0b8f6f4e-3c1a-4d2e-9f00-123456789abc';
    const twin = {
      ...pending.proposal,
      confidence: 0.5,
      reasons: [`possible duplicate of proposal ${earlier} (Kiwi, NOK 120.00, 2026-11-27)`],
      submittedAt: new Date('2026-06-01T10:30:00Z'),
    };
    const page = renderReviewPage({
      viewer: viewerAs('accountant'),
      queue: { pending: [twin], delayed: [], truncated: false, context: null },
      done: null,
    }).value;
    expect(page).toContain(`proposal <a class="id" href="/console/proposals/${earlier}">${earlier}</a>`);
    expect(page).toContain('(Needs review)');
    expect(page).toContain('Expense (paid)');
    expect(page).not.toMatch(/>[^<]*\b(review_required|auto_approve|supplier_invoice)\b/);
    // Summer time in Oslo: UTC+2.
    expect(page).toContain('<time datetime="2026-06-01T10:30:00.000Z">1. juni 2026, 12:30</time>');
  });

  it('escapes what the submitter wrote', () => {
    const page = renderReviewPage({
      viewer: viewerAs('accountant'),
      queue: { pending: [pending.proposal], delayed: [], truncated: false, context: null },
      done: null,
    }).value;
    expect(page).toContain('Kiosk &lt;b&gt;Bar&lt;/b&gt;');
    expect(page).not.toContain('<b>Bar</b>');
  });
});

describe('renderProposalPage', () => {
  const rejected = aProposalHistory('REJECTED', { details: { merchant: 'Kiosk <b>Bar</b>' } });
  const events = rejected.events.map((e) => ({ ...e }));

  function verification(over: Partial<EventsVerification>): EventsVerification {
    return { ok: true, events: [], verified: events.length, pending: 0, broken: 0, keyed: true, ...over };
  }

  it('says the chain is verified, and lists every event', () => {
    const page = renderProposalPage({
      viewer: viewerAs('manager'),
      chain: { proposal: rejected.proposal, events, verification: verification({}) },
    }).value;
    expect(page).toContain('data-chain="verified"');
    expect(page).toContain('<h3>Proposed');
    expect(page).toContain('<h3>Rejected');
    expect(page).toContain('data-status="REJECTED"');
    expect(page).not.toContain('<b>Bar</b>');
  });

  it('names where the chain is broken, escaping the reason', () => {
    const [first] = events;
    const page = renderProposalPage({
      viewer: viewerAs('manager'),
      chain: {
        proposal: rejected.proposal,
        events,
        verification: verification({
          ok: false,
          verified: events.length - 1,
          broken: 1,
          events: [{ eventId: first.id, sequence: 1, chainIndex: 7, state: 'broken', reason: 'hash <differs>' }],
        }),
      },
    }).value;
    expect(page).toContain('data-chain="broken"');
    expect(page).toContain('Hash chain broken at 1 place(s)');
    expect(page).toContain('hash &lt;differs&gt;');
    expect(page).toContain('data-link="broken"');
  });

  it('says recent events are not sealed yet', () => {
    const page = renderProposalPage({
      viewer: viewerAs('manager'),
      chain: { proposal: rejected.proposal, events, verification: verification({ verified: 0, pending: 2 }) },
    }).value;
    expect(page).toContain('data-chain="pending"');
  });
});

describe('the postings on the review pages', () => {
  const card = aProposalHistory('PROPOSED', {
    details: { merchant: 'Clas Ohlson', amount: 125_000, accountCode: '6800', paidWith: 'company_card' },
  }).proposal;
  const planned = plannedPostings(card, '1930');
  const verification: EventsVerification = {
    ok: true,
    events: [],
    verified: 0,
    pending: 0,
    broken: 0,
    keyed: true,
  };

  it('shows what was bought and how it was paid, and the postings planned, in the queue', () => {
    const page = renderReviewPage({
      viewer: viewerAs('accountant'),
      queue: {
        pending: [card],
        delayed: [],
        truncated: false,
        context: null,
        postings: new Map([[card.id, { planned, problem: null, readBack: null }]]),
      },
      done: null,
    }).value;
    expect(page).toContain('data-paid-with="company_card"');
    expect(page).toContain('data-vat-treatment="domestic"');
    expect(page).toContain('Postings to be booked');
    expect(page).toContain('data-account="1930"');
    expect(page).toContain('data-account="2710"');
  });

  it('says whether a booked employee outlay was paid back, and nothing for other proposals', () => {
    const outlay = aProposalHistory('EXECUTED', {
      details: { merchant: 'Meny', amount: 34_555, accountCode: '5915', vatRate: '15', paidWith: 'employee' },
    }).proposal;
    const pageOf = (proposal: typeof outlay) =>
      renderProposalPage({ viewer: viewerAs('manager'), chain: { proposal, events: [], verification } }).value;

    const open = pageOf(outlay);
    expect(open).toContain('<dt>Reimbursement</dt>');
    expect(open).toMatch(/data-reimbursement="open">Not yet paid back to \S+@/);

    const paid = pageOf({
      ...outlay,
      reimbursement: {
        paidOn: '2026-11-27',
        reference: 'Nettbank <4471>',
        markedBy: 'kari@example.no',
        markedAt: new Date('2026-11-27T12:00:00Z'),
      },
    });
    expect(paid).toContain('data-reimbursement="paid"');
    expect(paid).toContain('(Nettbank &lt;4471&gt;), marked by');
    expect(paid).toContain('kari@example.no');

    const waiting = aProposalHistory('APPROVED', { details: { paidWith: 'employee' } }).proposal;
    expect(pageOf(waiting)).not.toContain('data-reimbursement');
    expect(pageOf(card)).not.toContain('data-reimbursement');
  });

  it('says why no postings can be planned', () => {
    const page = renderProposalPage({
      viewer: viewerAs('manager'),
      chain: {
        proposal: card,
        events: [],
        verification,
        postings: { planned: null, problem: 'the company has no account for company_card payments', readBack: null },
      },
    }).value;
    expect(page).toContain('data-postings="none"');
    expect(page).toContain('no account for company_card');
  });

  it('flags postings the provider booked otherwise, and a failed read-back', () => {
    const booked = [{ ...planned[0], amount: 125_000 }, planned[2]];
    const differs = renderProposalPage({
      viewer: viewerAs('manager'),
      chain: {
        proposal: card,
        events: [],
        verification,
        postings: {
          planned,
          problem: null,
          readBack: { planned, booked, differences: postingDifferences(planned, booked), error: null },
        },
      },
    }).value;
    expect(differs).toContain('data-read-back="differs"');
    expect(differs).toContain('account 2710: planned 25000 øre, booked 0 øre');

    const failed = renderProposalPage({
      viewer: viewerAs('manager'),
      chain: {
        proposal: card,
        events: [],
        verification,
        postings: {
          planned,
          problem: null,
          readBack: { planned, booked: null, differences: [], error: 'the ledger is down' },
        },
      },
    }).value;
    expect(failed).toContain('data-read-back="failed"');
    expect(failed).toContain('the ledger is down');
  });
});
