import type { ProposalView } from '@app/application';
import type { ProposalPostings } from '@app/application';
import { correctionsJson, isBookedOutlay, postingData, proposalContent, type Proposal } from '@app/domain';
import { eventJson } from '../events/event.mapper';
import type { ProposalDto, ProposalReimbursementDto } from './proposal.dto';

/** A proposal and its events as the contract shows them (§4.1): money as decimal strings, instants RFC 3339. */
export function proposalJson({ proposal, events, postings }: ProposalView): ProposalDto {
  return {
    id: proposal.id,
    correlationId: proposal.correlationId,
    status: proposal.status,
    confidence: proposal.confidence,
    route: proposal.route,
    reasons: [...proposal.reasons],
    executeAfter: proposal.executeAfter ? proposal.executeAfter.toISOString() : null,
    ...proposalContent(proposal),
    submittedBy: proposal.submittedBy,
    submittedAt: proposal.submittedAt.toISOString(),
    updatedAt: proposal.updatedAt.toISOString(),
    autoApproved: proposal.autoApproved,
    approvedBy: proposal.approvedBy,
    corrections: correctionsJson(proposal.corrections),
    rejectedBy: proposal.rejectedBy,
    rejectionReason: proposal.rejectionReason,
    booking: proposal.booking ? { ...proposal.booking } : null,
    reimbursement: reimbursementJson(proposal),
    lastExecutionError: proposal.lastExecutionError,
    ...(postings && postingsJson(postings)),
    events: events.map(eventJson),
  };
}

/**
 * `postings`: the read-back once the provider's ledger was read after execution, else the planned
 * ones; after execution also the planned ones, their differences and a failed read-back's reason.
 */
function postingsJson({ planned, problem, readBack }: ProposalPostings): Partial<ProposalDto> {
  const booked = readBack?.booked ?? null;
  const shown = booked ?? planned;
  return {
    postings: shown ? shown.map(postingData) : null,
    postingsSource: booked ? 'booked' : planned ? 'planned' : null,
    postingsProblem: problem,
    ...(readBack && {
      plannedPostings: readBack.planned ? readBack.planned.map(postingData) : null,
      postingDifferences: [...readBack.differences],
      postingsReadBackError: readBack.error,
    }),
  };
}

/**
 * An executed employee outlay's pay-back: open until marked paid (ReimbursementPaid), then when,
 * by whom and with which reference; null for a proposal that is no such outlay or not yet booked.
 */
export function reimbursementJson(proposal: Proposal): ProposalReimbursementDto | null {
  if (!isBookedOutlay(proposal)) return null;
  const paid = proposal.reimbursement;
  if (!paid) return { status: 'open' };
  return {
    status: 'paid',
    paidOn: paid.paidOn,
    reference: paid.reference,
    paidBy: paid.markedBy,
    paidAt: paid.markedAt.toISOString(),
  };
}
