import { PermissionDenied, sameActor, type Proposal } from '@app/domain';
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
