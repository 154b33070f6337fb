import {
  ManualClock,
  SequentialIdGenerator,
  aProposal,
  aProposalHistory,
  aReviewerOrigin,
  anAssessment,
  anExpense,
  anOrigin,
  REVIEWER,
  SUBMITTER,
} from '@app/testing';
import { InvalidTransition, NotFound, PermissionDenied, ValidationFailed } from '../errors/domain-error';
import { DomainContext } from '../shared/domain-context';
import { Proposal } from './proposal';
import { PROPOSAL_COMMAND_TYPES, ProposalCommand, ProposalCommandOf, ProposalCommandType } from './proposal-commands';
import { parseCorrections } from './corrections';
import { submitProposal, transitionProposal } from './proposal-lifecycle';
import { PROPOSAL_STATUSES, ProposalStatus } from './proposal-status';

function newContext(): DomainContext & { clock: ManualClock } {
  return { clock: new ManualClock('2026-11-20T10:00:00.000Z'), ids: new SequentialIdGenerator(1) };
}

/** A valid command of each type, as the use cases would build it. */
const COMMANDS: Record<ProposalCommandType, ProposalCommand> = {
  AutoApprove: { type: 'AutoApprove', origin: anOrigin(), executionDelayMinutes: 15 },
  Approve: { type: 'Approve', origin: aReviewerOrigin(), corrections: { accountCode: '6300' } },
  Reject: { type: 'Reject', origin: aReviewerOrigin(), reason: 'wrong amount' },
  MarkExecuted: {
    type: 'MarkExecuted',
    origin: { ...aReviewerOrigin(), provider: 'tripletex' },
    bookingId: 'voucher-42',
    apiCalls: [{ method: 'POST', path: '/ledger/voucher', status: 201 }],
  },
  RecordExecutionFailure: {
    type: 'RecordExecutionFailure',
    origin: aReviewerOrigin(),
    message: 'account 6300 is closed',
    apiCalls: [{ method: 'POST', path: '/ledger/voucher', status: 422 }],
  },
  MarkReimbursed: { type: 'MarkReimbursed', origin: aReviewerOrigin(), paidOn: '2026-11-20', reference: 'TR-1' },
};

/** Expected outcome of every (status, command): the status it leads to and its event, or refusal. */
const TABLE: Record<ProposalStatus, Record<ProposalCommandType, [ProposalStatus, string] | 'refused'>> = {
  PROPOSED: {
    AutoApprove: ['APPROVED', 'Approved'],
    Approve: ['APPROVED', 'Approved'],
    Reject: ['REJECTED', 'Rejected'],
    MarkExecuted: 'refused',
    RecordExecutionFailure: 'refused',
    MarkReimbursed: 'refused',
  },
  APPROVED: {
    AutoApprove: 'refused',
    Approve: 'refused',
    Reject: ['REJECTED', 'Rejected'],
    MarkExecuted: ['EXECUTED', 'Executed'],
    RecordExecutionFailure: ['APPROVED', 'ExecutionFailed'],
    MarkReimbursed: 'refused',
  },
  EXECUTED: {
    AutoApprove: 'refused',
    Approve: 'refused',
    Reject: 'refused',
    MarkExecuted: 'refused',
    RecordExecutionFailure: 'refused',
    MarkReimbursed: ['EXECUTED', 'ReimbursementPaid'],
  },
  REJECTED: {
    AutoApprove: 'refused',
    Approve: 'refused',
    Reject: 'refused',
    MarkExecuted: 'refused',
    RecordExecutionFailure: 'refused',
    MarkReimbursed: 'refused',
  },
};

const CASES = PROPOSAL_STATUSES.flatMap((status) =>
  PROPOSAL_COMMAND_TYPES.map((type) => [status, type, TABLE[status][type]] as const),
);

describe('proposal state machine: every status × every command', () => {
  it('covers 4 statuses × 6 commands', () => {
    expect(CASES).toHaveLength(24);
  });

  it.each(CASES.filter(([, , outcome]) => outcome !== 'refused'))('%s + %s → %j', (status, type, outcome) => {
    const ctx = newContext();
    // Auto-approval needs an auto_approve route; everything else starts from a reviewed proposal.
    // Only an employee's outlay is reimbursed.
    const details = type === 'MarkReimbursed' ? { paidWith: 'employee' as const } : {};
    const { proposal } = aProposalHistory(status, { ctx, score: 0.95, details });

    const result = transitionProposal(proposal, COMMANDS[type], ctx);

    const [nextStatus, eventType] = outcome as [ProposalStatus, string];
    expect(result.proposal.status).toBe(nextStatus);
    expect(result.proposal.version).toBe(proposal.version + 1);
    expect(result.events).toHaveLength(1);
    expect(result.events[0]).toMatchObject({
      type: eventType,
      status: nextStatus,
      proposalId: proposal.id,
      correlationId: proposal.correlationId,
      sequence: proposal.version + 1,
      company: proposal.companyId,
      actor: COMMANDS[type].origin.actor,
      channel: COMMANDS[type].origin.channel,
      provider: COMMANDS[type].origin.provider,
      confidence: proposal.confidence,
      occurredAt: ctx.clock.now(),
    });
  });

  it.each(CASES.filter(([, , outcome]) => outcome === 'refused'))(
    '%s + %s is refused with InvalidTransition',
    (status, type) => {
      const ctx = newContext();
      const proposal = aProposal(status, { ctx, score: 0.95 });

      const attempt = () => transitionProposal(proposal, COMMANDS[type], ctx);

      expect(attempt).toThrow(InvalidTransition);
      expect(attempt).toThrow(new RegExp(`in status ${status}`));
    },
  );

  it.each([
    ['EXECUTED', 'Approve', 'cannot approve a proposal in status EXECUTED: it has already been executed'],
    [
      'REJECTED',
      'Reject',
      'cannot reject a proposal in status REJECTED: it has been rejected (resubmit a corrected proposal instead)',
    ],
    ['EXECUTED', 'Reject', 'cannot reject a proposal in status EXECUTED: it has already been executed'],
    ['PROPOSED', 'MarkExecuted', 'cannot execute a proposal in status PROPOSED: it has not been approved'],
  ] as const)('explains the refusal of %s + %s', (status, type, message) => {
    const ctx = newContext();
    expect(() => transitionProposal(aProposal(status, { ctx }), COMMANDS[type], ctx)).toThrow(message);
  });

  it('maps refusals to the contract code invalid_transition', () => {
    const ctx = newContext();
    try {
      transitionProposal(aProposal('REJECTED', { ctx }), COMMANDS.Reject, ctx);
      throw new Error('expected a refusal');
    } catch (error) {
      expect((error as InvalidTransition).code).toBe('invalid_transition');
    }
  });
});

describe('submitting a proposal', () => {
  it('creates a PROPOSED proposal that starts its own chain with a Proposed event at sequence 1', () => {
    const ctx = newContext();

    const { proposal, events } = submitProposal(
      {
        companyId: 'acme',
        origin: anOrigin(),
        details: anExpense(),
        assessment: anAssessment(0.96, ['exact merchant match: spotify']),
      },
      ctx,
    );

    expect(proposal).toMatchObject({
      status: 'PROPOSED',
      correlationId: proposal.id,
      version: 1,
      merchantKey: 'spotify',
      submittedBy: SUBMITTER,
      channel: 'slack',
      confidence: 0.96,
      route: 'auto_approve',
      executeAfter: null,
      resubmissionOf: null,
    });
    expect(events).toEqual([
      {
        id: expect.any(String),
        type: 'Proposed',
        status: 'PROPOSED',
        proposalId: proposal.id,
        correlationId: proposal.id,
        sequence: 1,
        occurredAt: new Date('2026-11-20T10:00:00.000Z'),
        actor: SUBMITTER,
        company: 'acme',
        channel: 'slack',
        provider: 'tripletex',
        api_calls: [],
        confidence: 0.96,
        data: {
          kind: 'expense',
          merchant: 'Spotify AB',
          merchantKey: 'spotify',
          amount: '119.00',
          currency: 'NOK',
          date: '2026-11-20',
          accountCode: '6540',
          vatRate: '25',
          description: 'Spotify Premium',
          receipt: { filename: 'r.pdf', contentType: 'application/pdf', sizeBytes: 2048, sha256: 'a'.repeat(64) },
          thread: { channel: 'slack', threadId: 'C01/1700000000.000100' },
          resubmissionOf: null,
          route: 'auto_approve',
          reasons: ['exact merchant match: spotify'],
          paidWith: 'bank',
          vatTreatment: 'domestic',
          lines: [{ accountCode: '6540', vatRate: '25', amount: '119.00', description: 'Spotify Premium' }],
          supplier: null,
          invoiceNumber: null,
          dueDate: null,
          departmentId: null,
        },
      },
    ]);
  });

  it('takes ids and time only from the context', () => {
    const ctx = newContext();
    const { proposal, events } = submitProposal(
      { companyId: 'acme', origin: anOrigin(), details: anExpense(), assessment: anAssessment(0) },
      ctx,
    );

    expect(proposal.id).toBe('00000001-0000-7000-8000-000000000001');
    expect(events[0].id).toBe('00000001-0000-7000-8000-000000000002');
    expect(proposal.submittedAt).toEqual(ctx.clock.now());
  });

  it('auto-approval produces Proposed and Approved: two events of one chain', () => {
    const { events } = aProposalHistory('APPROVED', { autoApproved: true });

    expect(events.map((e) => [e.type, e.sequence, e.status])).toEqual([
      ['Proposed', 1, 'PROPOSED'],
      ['Approved', 2, 'APPROVED'],
    ]);
  });
});

describe('resubmission', () => {
  it('joins the chain of the REJECTED proposal it corrects, after its last event', () => {
    const ctx = newContext();
    const rejected = aProposal('REJECTED', { ctx });

    const { proposal, events } = submitProposal(
      {
        companyId: 'acme',
        origin: anOrigin(),
        details: anExpense({ amount: 12900 }),
        assessment: anAssessment(0),
        resubmissionOf: rejected,
      },
      ctx,
    );

    expect(proposal.id).not.toBe(rejected.id);
    expect(proposal.correlationId).toBe(rejected.correlationId);
    expect(proposal.resubmissionOf).toBe(rejected.id);
    expect(proposal.version).toBe(3);
    expect(events[0]).toMatchObject({
      type: 'Proposed',
      sequence: 3,
      proposalId: proposal.id,
      data: { resubmissionOf: rejected.id },
    });
  });

  it.each(['PROPOSED', 'APPROVED', 'EXECUTED'] as const)('refuses to resubmit a proposal in status %s', (status) => {
    const ctx = newContext();
    const previous = aProposal(status, { ctx });

    expect(() =>
      submitProposal(
        {
          companyId: 'acme',
          origin: anOrigin(),
          details: anExpense(),
          assessment: anAssessment(0),
          resubmissionOf: previous,
        },
        ctx,
      ),
    ).toThrow(
      new InvalidTransition(
        `cannot resubmit proposal ${previous.id} in status ${status}: only a REJECTED proposal can be resubmitted`,
      ),
    );
  });

  it.each(['manager', 'accountant', 'admin'])(
    "refuses a colleague's resubmission with permission_denied, whatever their role (%s)",
    (role) => {
      const ctx = newContext();
      const rejected = aProposal('REJECTED', { ctx });

      const attempt = () =>
        submitProposal(
          {
            companyId: 'acme',
            origin: anOrigin({ actor: `${role}@example.no` }),
            details: anExpense(),
            assessment: anAssessment(0),
            resubmissionOf: rejected,
          },
          ctx,
        );

      expect(attempt).toThrow(PermissionDenied);
      expect(attempt).toThrow(/only its submitter may resubmit it/);
    },
  );

  it('lets the submitter resubmit, whatever the case of the email', () => {
    const ctx = newContext();
    const rejected = aProposal('REJECTED', { ctx });

    const { proposal } = submitProposal(
      {
        companyId: 'acme',
        origin: anOrigin({ actor: SUBMITTER.toUpperCase() }),
        details: anExpense(),
        assessment: anAssessment(0),
        resubmissionOf: rejected,
      },
      ctx,
    );

    expect(proposal.resubmissionOf).toBe(rejected.id);
  });

  it('refuses a rejected proposal of another company as not found', () => {
    const ctx = newContext();
    const foreign = aProposal('REJECTED', { ctx, companyId: 'globex' });

    expect(() =>
      submitProposal(
        {
          companyId: 'acme',
          origin: anOrigin(),
          details: anExpense(),
          assessment: anAssessment(0),
          resubmissionOf: foreign,
        },
        ctx,
      ),
    ).toThrow(NotFound);
  });
});

describe('approval', () => {
  it('refuses the submitter as approver (separation of duties), whatever the case of the email', () => {
    const ctx = newContext();
    const proposal = aProposal('PROPOSED', { ctx });

    const attempt = () =>
      transitionProposal(proposal, { type: 'Approve', origin: anOrigin({ actor: SUBMITTER.toUpperCase() }) }, ctx);

    expect(attempt).toThrow(PermissionDenied);
    expect(attempt).toThrow(/submitted proposal .* and cannot also approve it: separation of duties/);
  });

  it('applies corrections, records them, and executes promptly (executeAfter = now)', () => {
    const ctx = newContext();
    const proposal = aProposal('PROPOSED', { ctx });

    const { proposal: approved, events } = transitionProposal(
      proposal,
      { type: 'Approve', origin: aReviewerOrigin(), corrections: { accountCode: '6300', vatRate: '15.00' } },
      ctx,
    );

    expect(approved).toMatchObject({
      accountCode: '6300',
      vatRate: '15',
      // The one line is what gets booked: it follows the correction.
      lines: [{ accountCode: '6300', vatRate: '15', amount: proposal.amount }],
      corrections: { accountCode: '6300', vatRate: '15' },
      approvedBy: REVIEWER,
      autoApproved: false,
      executeAfter: ctx.clock.now(),
    });
    expect(events[0].data).toEqual({
      auto: false,
      corrections: { accountCode: '6300', vatRate: '15' },
      accountCode: '6300',
      vatRate: '15',
      executeAfter: '2026-11-20T10:00:00.000Z',
    });
  });

  it('approves without corrections', () => {
    const ctx = newContext();
    const { proposal } = transitionProposal(
      aProposal('PROPOSED', { ctx }),
      { type: 'Approve', origin: aReviewerOrigin() },
      ctx,
    );

    expect(proposal).toMatchObject({ status: 'APPROVED', corrections: null, accountCode: '6540', vatRate: '25' });
  });

  it('refuses invalid corrections with validation_failed naming the fields', () => {
    const ctx = newContext();
    const attempt = () =>
      transitionProposal(
        aProposal('PROPOSED', { ctx }),
        { type: 'Approve', origin: aReviewerOrigin(), corrections: { accountCode: '65', vatRate: '250' } },
        ctx,
      );

    expect(attempt).toThrow(ValidationFailed);
    try {
      attempt();
    } catch (error) {
      expect((error as ValidationFailed).fieldErrors?.map((e) => e.field)).toEqual([
        'corrections.accountCode',
        'corrections.vatRate',
      ]);
    }
  });

  it('treats empty corrections as none', () => {
    expect(parseCorrections({})).toBeNull();
    expect(parseCorrections(null)).toBeNull();
  });
});

describe('auto-approval', () => {
  it.each([0.89, 0.7, 0])('is refused for a proposal scored %d (not routed auto_approve)', (score) => {
    const ctx = newContext();
    const proposal = aProposal('PROPOSED', { ctx, score });

    expect(() => transitionProposal(proposal, COMMANDS.AutoApprove, ctx)).toThrow(InvalidTransition);
  });

  it.each([
    [15, '2026-11-20T10:15:00.000Z'],
    [0, '2026-11-20T10:00:00.000Z'],
  ])('waits the company’s execution delay of %d minutes', (delay, executeAfter) => {
    const ctx = newContext();
    const proposal = aProposal('PROPOSED', { ctx, score: 0.9 });

    const { proposal: approved, events } = transitionProposal(
      proposal,
      { type: 'AutoApprove', origin: anOrigin(), executionDelayMinutes: delay },
      ctx,
    );

    expect(approved).toMatchObject({
      status: 'APPROVED',
      autoApproved: true,
      approvedBy: null,
      executeAfter: new Date(executeAfter),
    });
    expect(events[0].data).toMatchObject({ auto: true, corrections: null, executeAfter });
  });

  it.each([-1, 1.5, Number.NaN])('refuses an execution delay of %d minutes', (delay) => {
    const ctx = newContext();
    const proposal = aProposal('PROPOSED', { ctx, score: 0.95 });

    expect(() =>
      transitionProposal(proposal, { type: 'AutoApprove', origin: anOrigin(), executionDelayMinutes: delay }, ctx),
    ).toThrow(ValidationFailed);
  });

  it('lets a human reject an auto-approved proposal before execution', () => {
    const ctx = newContext();
    const proposal = aProposal('APPROVED', { ctx, autoApproved: true });

    const { proposal: rejected } = transitionProposal(proposal, COMMANDS.Reject, ctx);

    expect(rejected).toMatchObject({ status: 'REJECTED', rejectionReason: 'wrong amount', rejectedBy: REVIEWER });
  });
});

describe('rejection', () => {
  it.each(['', '   ', 'x'.repeat(1001)])('refuses a reason of %p with validation_failed', (reason) => {
    const ctx = newContext();
    expect(() =>
      transitionProposal(aProposal('PROPOSED', { ctx }), { type: 'Reject', origin: aReviewerOrigin(), reason }, ctx),
    ).toThrow(ValidationFailed);
  });

  it('accepts a reason of 1000 characters and stores it in the Rejected event', () => {
    const ctx = newContext();
    const reason = 'x'.repeat(1000);

    const { events } = transitionProposal(
      aProposal('PROPOSED', { ctx }),
      { type: 'Reject', origin: aReviewerOrigin(), reason },
      ctx,
    );

    expect(events[0].data).toEqual({ reason });
  });

  it('validates the command before the state: a bad reason on an executed proposal is validation_failed', () => {
    const ctx = newContext();
    expect(() =>
      transitionProposal(
        aProposal('EXECUTED', { ctx }),
        { type: 'Reject', origin: aReviewerOrigin(), reason: '' },
        ctx,
      ),
    ).toThrow(ValidationFailed);
  });
});

describe('execution', () => {
  function autoApproved(ctx: DomainContext, delay: number): Proposal {
    const proposal = aProposal('PROPOSED', { ctx, score: 0.95 });
    return transitionProposal(proposal, { type: 'AutoApprove', origin: anOrigin(), executionDelayMinutes: delay }, ctx)
      .proposal;
  }

  it('refuses to execute before executeAfter, so a human can still reject', () => {
    const ctx = newContext();
    const proposal = autoApproved(ctx, 15);
    ctx.clock.advance({ minutes: 14 });

    expect(() => transitionProposal(proposal, COMMANDS.MarkExecuted, ctx)).toThrow(
      /cannot execute proposal .* before 2026-11-20T10:15:00.000Z/,
    );
  });

  it('executes at executeAfter, recording the booking and the provider calls', () => {
    const ctx = newContext();
    const proposal = autoApproved(ctx, 15);
    ctx.clock.advance({ minutes: 15 });

    const { proposal: executed, events } = transitionProposal(proposal, COMMANDS.MarkExecuted, ctx);

    expect(executed).toMatchObject({ status: 'EXECUTED', booking: { provider: 'tripletex', bookingId: 'voucher-42' } });
    expect(events[0]).toMatchObject({
      type: 'Executed',
      provider: 'tripletex',
      api_calls: [{ method: 'POST', path: '/ledger/voucher', status: 201 }],
      data: { bookingId: 'voucher-42' },
    });
  });

  it('records a permanent failure without leaving APPROVED, and can still be rejected or executed later', () => {
    const ctx = newContext();
    const approved = aProposal('APPROVED', { ctx });

    const failed = transitionProposal(approved, COMMANDS.RecordExecutionFailure, ctx);

    expect(failed.proposal).toMatchObject({
      status: 'APPROVED',
      lastExecutionError: 'account 6300 is closed',
      version: approved.version + 1,
    });
    expect(failed.events[0]).toMatchObject({
      type: 'ExecutionFailed',
      status: 'APPROVED',
      data: { message: 'account 6300 is closed' },
    });
    expect(transitionProposal(failed.proposal, COMMANDS.Reject, ctx).proposal.status).toBe('REJECTED');
    const executed = transitionProposal(failed.proposal, COMMANDS.MarkExecuted, ctx);
    expect(executed.proposal).toMatchObject({ status: 'EXECUTED', lastExecutionError: null });
    expect(executed.events[0].sequence).toBe(approved.version + 2);
  });
});

describe('marking an employee outlay reimbursed', () => {
  const mark = (overrides: Partial<ProposalCommandOf<'MarkReimbursed'>> = {}): ProposalCommand => ({
    type: 'MarkReimbursed',
    origin: aReviewerOrigin(),
    paidOn: '2026-11-20',
    reference: ' TR-1 ',
    ...overrides,
  });

  it('records the payout on the proposal and in the event, with the NOK amount owed', () => {
    const ctx = newContext();
    const proposal = aProposal('EXECUTED', {
      ctx,
      details: { paidWith: 'employee', currency: 'EUR', amount: 1_000, amountNok: 11_725, vatRate: '0' },
    });

    const result = transitionProposal(proposal, mark(), ctx);

    expect(result.proposal.reimbursement).toEqual({
      paidOn: '2026-11-20',
      reference: 'TR-1',
      markedBy: REVIEWER,
      markedAt: ctx.clock.now(),
    });
    expect(result.proposal.status).toBe('EXECUTED');
    expect(result.events[0]).toMatchObject({
      type: 'ReimbursementPaid',
      data: { paidOn: '2026-11-20', reference: 'TR-1', amountNok: '117.25' },
    });
  });

  it('refuses an expense paid from the bank or by card: nobody is owed', () => {
    const ctx = newContext();
    for (const paidWith of ['bank', 'company_card'] as const) {
      const proposal = aProposal('EXECUTED', { ctx, details: { paidWith } });
      expect(() => transitionProposal(proposal, mark(), ctx)).toThrow(/not an employee's outlay/);
    }
  });

  it('refuses a second mark, naming the first', () => {
    const ctx = newContext();
    const proposal = aProposal('EXECUTED', { ctx, details: { paidWith: 'employee' } });
    const once = transitionProposal(proposal, mark(), ctx).proposal;

    const again = () => transitionProposal(once, mark({ paidOn: '2026-11-19' }), ctx);

    expect(again).toThrow(InvalidTransition);
    expect(again).toThrow(`already marked reimbursed (paid on 2026-11-20 by ${REVIEWER})`);
  });

  it.each([
    [{ paidOn: '2026-11-31' }, 'paidOn'],
    [{ paidOn: '20.11.2026' }, 'paidOn'],
    [{ paidOn: '2026-11-22' }, 'paidOn'],
    [{ reference: '  ' }, 'reference'],
    [{ reference: 'x'.repeat(201) }, 'reference'],
  ])('refuses %j naming %s', (overrides, field) => {
    const ctx = newContext();
    const proposal = aProposal('EXECUTED', { ctx, details: { paidWith: 'employee' } });

    const attempt = () => transitionProposal(proposal, mark(overrides), ctx);

    expect(attempt).toThrow(ValidationFailed);
    expect(attempt).toThrow(new RegExp(field));
  });
});
