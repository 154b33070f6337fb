import type { ExpenseDetailsInput } from '@app/domain';
import type { IdempotentRequest } from '../idempotency/idempotent-execution';
import type { ReceiptUploadInput } from '../receipts/receipt-upload';
import type { Caller } from '../shared/caller';
import type { ProposalView } from '../shared/proposal-view';

/** The request of POST /proposals (docs/api.md §4.1), before validation. */
export interface ProposalSubmission extends Omit<ExpenseDetailsInput, 'receipt'> {
  readonly receipt?: ReceiptUploadInput | null;
  /** The id of a REJECTED proposal of the same company that this one corrects. */
  readonly resubmissionOf?: unknown;
}

export interface SubmitProposalCommand {
  readonly caller: Caller;
  readonly submission: ProposalSubmission;
  /** The request's Idempotency-Key, when it sent one. */
  readonly idempotency?: IdempotentRequest<ProposalView> | null;
}
