/** States of a proposal (spec §3). */
export const PROPOSAL_STATUSES = ['PROPOSED', 'APPROVED', 'EXECUTED', 'REJECTED'] as const;
export type ProposalStatus = (typeof PROPOSAL_STATUSES)[number];

export function isProposalStatus(value: unknown): value is ProposalStatus {
  return typeof value === 'string' && (PROPOSAL_STATUSES as readonly string[]).includes(value);
}
