import type { Channel } from '../identity/identity';
import { Route } from '../confidence/route';
import type { ReceiptFingerprint } from '../duplicates/receipt-fingerprint';
import type { Posting } from '../bookkeeping/bookkeeping';
import { ExpenseDetails } from './expense-details';
import { ProposalStatus } from './proposal-status';

import type { Corrections } from './corrections';

export type { Corrections } from './corrections';

/** Where an executed proposal was booked: a Tripletex voucher or a Fiken purchase. */
export interface Booking {
  readonly provider: string;
  readonly bookingId: string;
}

/**
 * An employee's outlay paid back to them, as an accountant recorded it (MarkReimbursed): the day
 * and the payout's reference, who recorded it and when. The service does not book the payout.
 */
export interface Reimbursement {
  /** YYYY-MM-DD. */
  readonly paidOn: string;
  readonly reference: string | null;
  readonly markedBy: string;
  readonly markedAt: Date;
}

/**
 * What the provider booked, read back after the execution: the postings planned at execution (the
 * company's accounts then), the postings the provider's own ledger shows, and how they differ.
 * `booked` is null and `error` says why when the read-back failed; the booking stands either way.
 */
export interface PostingsReadBack {
  readonly planned: readonly Posting[] | null;
  readonly booked: readonly Posting[] | null;
  /** One sentence per account whose amount differs (postingDifferences); empty when they agree. */
  readonly differences: readonly string[];
  readonly error: string | null;
}

/**
 * The Proposal aggregate's state: plain immutable data, so persistence maps it without decorators.
 * Change it only through `submitProposal` and `transitionProposal`, which return the new state
 * together with the events to append.
 *
 * `version` is the `sequence` of the last event this proposal appended to its chain. It grows with
 * every transition, so it doubles as the optimistic-concurrency version of the read model, and the
 * next event's sequence is `version + 1`.
 */
export interface Proposal extends ExpenseDetails {
  readonly id: string;
  readonly companyId: string;
  readonly correlationId: string;
  readonly version: number;
  /** normalizeMerchant(merchant), kept for lookups. */
  readonly merchantKey: string;
  /** The token `sub` and channel of whoever submitted it. */
  readonly submittedBy: string;
  readonly channel: Channel;
  readonly submittedAt: Date;
  readonly updatedAt: Date;
  readonly status: ProposalStatus;
  /** The ConfidenceEngine's score at submission, in [0, 1] with 2 decimals. */
  readonly confidence: number;
  readonly route: Route;
  readonly reasons: readonly string[];
  /** Set on approval: now for a reviewer's approval, now + the company's delay for an auto-approval. */
  readonly executeAfter: Date | null;
  /** The REJECTED proposal this one corrects, whose chain it joined. */
  readonly resubmissionOf: string | null;
  readonly autoApproved: boolean;
  /** The reviewer who approved it; null while unapproved and for auto-approvals. */
  readonly approvedBy: string | null;
  readonly corrections: Corrections | null;
  readonly rejectedBy: string | null;
  readonly rejectionReason: string | null;
  readonly booking: Booking | null;
  /** The last permanent execution failure, cleared by a successful execution. */
  readonly lastExecutionError: string | null;
  /**
   * The receipt's fingerprint (duplicates/receipt-fingerprint.ts), computed from its bytes at
   * intake to recognise the same receipt in other bytes; null without a receipt or when it could
   * not be computed. Not part of the Proposed event: it is derived from the stored bytes.
   */
  readonly receiptFingerprint: ReceiptFingerprint | null;
  /** Set on execution: the postings read back from the provider (absent before, and on old rows). */
  readonly readBack?: PostingsReadBack | null;
  /** Set when an executed employee outlay is marked paid back (absent before, and on old rows). */
  readonly reimbursement?: Reimbursement | null;
}

/**
 * Whether the proposal is a booked employee outlay (an executed expense paid with the employee's own
 * money): the company owes the employee until it is marked paid back (GET /reimbursements).
 */
export function isBookedOutlay(proposal: Proposal): boolean {
  return proposal.status === 'EXECUTED' && proposal.kind === 'expense' && proposal.paidWith === 'employee';
}
