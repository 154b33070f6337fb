import {
  ConfidenceAssessment,
  DomainContext,
  ExpenseDetails,
  Proposal,
  ProposalEvent,
  ProposalStatus,
  routeFor,
  submitProposal,
  transitionProposal,
  withExpenseDefaults,
} from '@app/domain';
import { ManualClock } from '../time/manual-clock';
import { SequentialIdGenerator } from '../time/sequential-id-generator';
import { aReviewerOrigin, anOrigin, TEST_COMPANY } from './origin.mother';

/** A valid expense: a Spotify subscription. */
export function anExpense(overrides: Partial<ExpenseDetails> = {}): ExpenseDetails {
  return withExpenseDefaults({
    kind: 'expense',
    merchant: 'Spotify AB',
    amount: 11900,
    currency: 'NOK',
    amountNok: null,
    date: '2026-11-20',
    accountCode: '6540',
    vatRate: '25',
    description: 'Spotify Premium',
    receipt: {
      filename: 'r.pdf',
      contentType: 'application/pdf',
      sizeBytes: 2048,
      sha256: 'a'.repeat(64),
    },
    thread: { channel: 'slack', threadId: 'C01/1700000000.000100' },
    ...overrides,
  });
}

/** An engine verdict with the given score (route derived from it). */
export function anAssessment(
  score: number,
  reasons: string[] = ['test assessment'],
): Pick<ConfidenceAssessment, 'score' | 'route' | 'reasons'> {
  return { score, route: routeFor(score), reasons };
}

export interface ProposalHistory {
  readonly proposal: Proposal;
  /** Every event that led to it, in chain order. */
  readonly events: ProposalEvent[];
}

export interface ProposalOptions {
  readonly companyId?: string;
  readonly details?: Partial<ExpenseDetails>;
  /** Defaults to 0.95 (auto_approve) for auto-approved proposals and 0.0 otherwise. */
  readonly score?: number;
  /** Reach APPROVED (and beyond) by auto-approval instead of a reviewer's approval. */
  readonly autoApproved?: boolean;
  readonly ctx?: DomainContext;
}

/**
 * A proposal in `status`, built by the real state machine (so its fields and events are exactly what
 * production would have): PROPOSED → APPROVED → EXECUTED, or PROPOSED → REJECTED.
 */
export function aProposalHistory(status: ProposalStatus, options: ProposalOptions = {}): ProposalHistory {
  const ctx = options.ctx ?? { clock: new ManualClock(), ids: new SequentialIdGenerator() };
  const auto = options.autoApproved ?? false;
  const submitted = submitProposal(
    {
      companyId: options.companyId ?? TEST_COMPANY,
      origin: anOrigin(),
      details: anExpense(options.details),
      assessment: anAssessment(options.score ?? (auto ? 0.95 : 0)),
    },
    ctx,
  );
  let proposal = submitted.proposal;
  const events: ProposalEvent[] = [...submitted.events];
  const apply = (command: Parameters<typeof transitionProposal>[1]) => {
    const result = transitionProposal(proposal, command, ctx);
    proposal = result.proposal;
    events.push(...result.events);
  };
  if (status === 'PROPOSED') return { proposal, events };
  if (status === 'REJECTED') {
    apply({ type: 'Reject', origin: aReviewerOrigin(), reason: 'wrong amount' });
    return { proposal, events };
  }
  apply(
    auto
      ? { type: 'AutoApprove', origin: anOrigin(), executionDelayMinutes: 0 }
      : { type: 'Approve', origin: aReviewerOrigin(), corrections: null },
  );
  if (status === 'EXECUTED') {
    apply({
      type: 'MarkExecuted',
      origin: { ...aReviewerOrigin(), provider: 'tripletex' },
      bookingId: 'voucher-1',
      apiCalls: [{ method: 'POST', path: '/ledger/voucher', status: 201 }],
    });
  }
  return { proposal, events };
}

/** Just the proposal of aProposalHistory. */
export function aProposal(status: ProposalStatus = 'PROPOSED', options: ProposalOptions = {}): Proposal {
  return aProposalHistory(status, options).proposal;
}
