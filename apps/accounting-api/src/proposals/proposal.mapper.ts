import type { ProposalView } from '@app/application';
import { correctionsJson, proposalContent } from '@app/domain';
import { eventJson } from '../events/event.mapper';
import type { ProposalDto } from './proposal.dto';

/** A proposal and its events as the contract shows them (§4.1): money as decimal strings, instants RFC 3339. */
export function proposalJson({ proposal, events }: ProposalView): ProposalDto {
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
    lastExecutionError: proposal.lastExecutionError,
    events: events.map(eventJson),
  };
}
