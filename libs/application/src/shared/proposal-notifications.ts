import { formatMoney, type OutboundMessage, type Proposal } from '@app/domain';

/**
 * The outbound messages of the proposal lifecycle (docs/api.md §4.5), with the payload shapes
 * @app/notifications defines for each kind (`ProposalNeedsReviewPayload`, `ProposalAutoApprovedPayload`,
 * `ProposalRejectedPayload`): money as decimal strings, instants as RFC 3339 strings.
 *
 * `summary(proposal, extra)`: the fields every proposal message starts with, then `extra`.
 */
function summary<E extends object>(proposal: Proposal, extra: E) {
  return {
    proposalId: proposal.id,
    correlationId: proposal.correlationId,
    merchant: proposal.merchant,
    amount: formatMoney(proposal.amount),
    currency: proposal.currency,
    date: proposal.date,
    accountCode: proposal.accountCode,
    vatRate: proposal.vatRate,
    ...(proposal.description !== null && { description: proposal.description }),
    ...extra,
  };
}

/** A proposal a reviewer has to look at → the company's review channel. */
export function needsReviewMessage(proposal: Proposal): OutboundMessage {
  return {
    companyId: proposal.companyId,
    target: 'review',
    kind: 'proposal_needs_review',
    payload: summary(proposal, {
      confidence: proposal.confidence,
      route: proposal.route,
      reasons: [...proposal.reasons],
      submittedBy: proposal.submittedBy,
    }),
  };
}

/** An auto-approval, told to the requesting user in their thread with the confidence. */
export function autoApprovedMessage(proposal: Proposal): OutboundMessage {
  return {
    companyId: proposal.companyId,
    target: 'user_thread',
    kind: 'proposal_auto_approved',
    payload: summary(proposal, {
      confidence: proposal.confidence,
      reasons: [...proposal.reasons],
      executeAfter: proposal.executeAfter ? proposal.executeAfter.toISOString() : null,
      actor: proposal.submittedBy,
      thread: proposal.thread ? { ...proposal.thread } : null,
    }),
  };
}

/** A rejection, told to the requesting user in their thread with the reason. */
export function rejectedMessage(proposal: Proposal): OutboundMessage {
  return {
    companyId: proposal.companyId,
    target: 'user_thread',
    kind: 'proposal_rejected',
    payload: summary(proposal, {
      reason: proposal.rejectionReason ?? '',
      rejectedBy: proposal.rejectedBy ?? '',
      actor: proposal.submittedBy,
      thread: proposal.thread ? { ...proposal.thread } : null,
    }),
  };
}
