import type { ReceiptFingerprint } from '../duplicates/receipt-fingerprint';
import { Proposal } from '../proposal/proposal';
import { ProposalStatus } from '../proposal/proposal-status';
import { Page, PageRequest } from '../shared/page';
import { AccountingDate } from '../values/accounting-date';
import { MinorUnits } from '../values/money';

/**
 * What a submission's duplicate read (SubmissionReads) narrows the company's proposals by: those not
 * rejected, submitted since `submittedSince`, that match any of the conditions below; newest
 * submission first, at most DUPLICATE_CANDIDATE_LIMIT (findPossibleDuplicates decides).
 */
export interface DuplicateCandidateQuery {
  /** Proposals with a receipt of this SHA-256, whatever their amount or date. */
  readonly receiptSha256: string | null;
  /** …or with a receipt whose fingerprint is the same receipt's (`sameReceipt`), whatever their amount or date. */
  readonly receiptFingerprint: ReceiptFingerprint | null;
  /**
   * …or of this merchant (its key, `normalizeMerchant`) with a NOK amount (`nokAmountOf`: amountNok
   * for another currency) in [amountMin, amountMax] and a date in [dateFrom, dateTo]. A purchase of
   * another merchant is never the same purchase (findPossibleDuplicates), so it is not read: a
   * company with many purchases of one price in the days around is not cut at the limit before the
   * true copy is reached.
   */
  readonly merchantKey: string;
  readonly amountMin: MinorUnits;
  readonly amountMax: MinorUnits;
  readonly dateFrom: AccountingDate;
  readonly dateTo: AccountingDate;
  /** Only proposals submitted at or after this instant. */
  readonly submittedSince: Date;
}

/** What `list` narrows the company's proposals by; every field is optional, all given ones apply. */
export interface ProposalListFilter {
  readonly status?: ProposalStatus;
  /** The submitter, whatever the letter case of the email (sameActor). */
  readonly submittedBy?: string;
  /** Accounting dates from and to, both inclusive. */
  readonly dateFrom?: AccountingDate;
  readonly dateTo?: AccountingDate;
}

/** Which employee outlays GET /reimbursements lists: not yet paid back, paid back, or both. */
export const REIMBURSEMENT_STATUSES = ['open', 'paid', 'all'] as const;
export type ReimbursementStatus = (typeof REIMBURSEMENT_STATUSES)[number];

/**
 * What `listReimbursements` and `reimbursementTotals` narrow to: the company's executed expenses
 * paid with the employee's own money (`paidWith: employee`), by whether they were marked paid back
 * (`reimbursement` set), and by submitter.
 */
export interface ReimbursementFilter {
  readonly status: ReimbursementStatus;
  /** The submitter, whatever the letter case of the email (sameActor). */
  readonly employee?: string;
}

/** What the company owes (or paid back to) one employee for the outlays of a filter. */
export interface ReimbursementTotal {
  /** The submitter's email, in lower case. */
  readonly employee: string;
  readonly count: number;
  /** The sum of the outlays' NOK amounts (`amountNok` for another currency), in øre. */
  readonly amountNok: MinorUnits;
}

/** How many duplicate candidates are read at most: enough to name them, bounded for a busy merchant. */
export const DUPLICATE_CANDIDATE_LIMIT = 20;

/**
 * The proposals' current state (the read model beside the event store), always scoped by company:
 * another company's id reads as absent.
 *
 * Writes are optimistic: `insert` refuses an id that exists and `update` refuses when the stored
 * version is not `expectedVersion`, both with ConcurrencyConflict.
 */
export abstract class ProposalRepository {
  abstract findById(companyId: string, id: string): Promise<Proposal | null>;

  abstract insert(proposal: Proposal): Promise<void>;

  /** Stores `proposal` (whose version is newer) if the stored one still has `expectedVersion`. */
  abstract update(proposal: Proposal, expectedVersion: number): Promise<void>;

  /** Proposals currently in `status`, oldest submission first (then id), keyset-paginated. */
  abstract listByStatus(companyId: string, status: ProposalStatus, page: PageRequest): Promise<Page<Proposal>>;

  /** The company's proposals that pass `filter`, oldest submission first (then id), keyset-paginated. */
  abstract list(companyId: string, filter: ProposalListFilter, page: PageRequest): Promise<Page<Proposal>>;

  /** The executed employee outlays that pass `filter`, oldest submission first (then id), keyset-paginated. */
  abstract listReimbursements(
    companyId: string,
    filter: ReimbursementFilter,
    page: PageRequest,
  ): Promise<Page<Proposal>>;

  /** Per employee (by email, in lower case, sorted), the count and NOK sum of every outlay that passes `filter`. */
  abstract reimbursementTotals(companyId: string, filter: ReimbursementFilter): Promise<ReimbursementTotal[]>;

  /**
   * The company's supplier invoices that were not rejected, from the supplier with
   * `organizationNumber` and numbered `invoiceNumber` as normalizeInvoiceNumber compares invoice
   * numbers (`F 1001` is `f1001`): oldest submission first (then id).
   */
  abstract findSupplierInvoices(
    companyId: string,
    organizationNumber: string,
    invoiceNumber: string,
  ): Promise<Proposal[]>;

  /**
   * Approved proposals whose executeAfter ≤ `now`, oldest first, across companies: the execution
   * worker's queue.
   */
  abstract listDueForExecution(now: Date, limit: number): Promise<Proposal[]>;
}
