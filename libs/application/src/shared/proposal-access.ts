import { NotFound, PermissionDenied, sameActor, type Proposal, type ProposalRepository } from '@app/domain';
import type { Caller } from './caller';

/**
 * Who may read a proposal of their company: managers and above every one, an employee only those
 * they submitted. Reading includes building on it — a resubmission joins its predecessor's chain.
 */
export function assertMayRead(caller: Caller, proposal: Proposal): void {
  if (caller.role === 'employee' && !sameActor(caller.actor, proposal.submittedBy)) {
    throw new PermissionDenied(
      `employees may read only their own proposals; proposal ${proposal.id} was submitted by someone else`,
    );
  }
}

/** A proposal of the caller's company that the caller may read: another company's is not found. */
export async function readableProposal(
  proposals: ProposalRepository,
  caller: Caller,
  proposalId: string,
): Promise<Proposal> {
  const proposal = await proposals.findById(caller.company, proposalId);
  if (!proposal) throw new NotFound('proposal', proposalId);
  assertMayRead(caller, proposal);
  return proposal;
}
