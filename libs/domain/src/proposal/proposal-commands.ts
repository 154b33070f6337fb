import type { EventOrigin } from '../identity/identity';
import type { ApiCall } from '../provider/api-call';
import { Corrections, PostingsReadBack } from './proposal';

/**
 * Everything that can happen to an existing proposal. Each command names who causes it: the
 * identity chain of the event it produces comes from `origin`.
 */
export type ProposalCommand =
  | {
      readonly type: 'AutoApprove';
      readonly origin: EventOrigin;
      /** The company's execution delay (default 15, 0 allowed): a human can still reject meanwhile. */
      readonly executionDelayMinutes: number;
    }
  | { readonly type: 'Approve'; readonly origin: EventOrigin; readonly corrections?: Corrections | null }
  | { readonly type: 'Reject'; readonly origin: EventOrigin; readonly reason: string }
  | {
      readonly type: 'MarkExecuted';
      readonly origin: EventOrigin & { readonly provider: string };
      readonly bookingId: string;
      readonly apiCalls: readonly ApiCall[];
      /** The postings the provider booked, read back (or why they could not be). */
      readonly readBack?: PostingsReadBack | null;
    }
  | {
      readonly type: 'MarkReimbursed';
      readonly origin: EventOrigin;
      /** YYYY-MM-DD: the day the employee was paid back. */
      readonly paidOn: string;
      /** The payout's reference, at most MAX_REIMBURSEMENT_REFERENCE_LENGTH characters. */
      readonly reference: string | null;
    }
  | {
      readonly type: 'RecordExecutionFailure';
      readonly origin: EventOrigin;
      readonly message: string;
      readonly apiCalls: readonly ApiCall[];
    };

export type ProposalCommandType = ProposalCommand['type'];
export type ProposalCommandOf<T extends ProposalCommandType> = Extract<ProposalCommand, { type: T }>;

export const PROPOSAL_COMMAND_TYPES: readonly ProposalCommandType[] = [
  'AutoApprove',
  'Approve',
  'Reject',
  'MarkExecuted',
  'RecordExecutionFailure',
  'MarkReimbursed',
];

export const MAX_REJECTION_REASON_LENGTH = 1000;
export const MAX_REIMBURSEMENT_REFERENCE_LENGTH = 200;
export const DEFAULT_EXECUTION_DELAY_MINUTES = 15;
