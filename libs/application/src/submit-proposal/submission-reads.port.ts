import type { DuplicateCandidateQuery, HistoricalBooking, Pattern, Proposal } from '@app/domain';

/** What a submission reads before it scores: its merchant's key and the ranges of a possible duplicate. */
export interface SubmissionReadQuery extends DuplicateCandidateQuery {
  /** A supplier invoice's supplier and number, to find its twins; null for any other submission. */
  readonly supplierInvoice: { readonly organizationNumber: string; readonly invoiceNumber: string } | null;
}

/** What SubmissionReads.read found, each part as the stores of its table map it (findById, bookingsSince). */
export interface SubmissionReadings {
  /**
   * The active patterns the ConfidenceEngine should look at for `merchantKey`: every pattern with
   * that exact key when there is one (however many), ordered by id, since the engine then scores
   * from them alone; otherwise the most similar other keys (trigram similarity, pg_trgm's default
   * threshold 0.3), most similar first (then by id), at most DEFAULT_CANDIDATE_LIMIT. The engine
   * itself decides what counts as the same merchant.
   */
  readonly candidates: Pattern[];
  /** The proposals it may repeat (DuplicateCandidateQuery): newest submission first, at most DUPLICATE_CANDIDATE_LIMIT. */
  readonly earlier: Proposal[];
  /**
   * The provider's bookings (the history import's) of an amount in [amountMin, amountMax] dated in
   * [dateFrom, dateTo]: oldest first (date, provider, booking id), at most NEAR_BOOKINGS_LIMIT.
   */
  readonly booked: HistoricalBooking[];
  /** The supplier invoice's twins, as ProposalRepository.findSupplierInvoices finds them; empty when not asked. */
  readonly sameInvoice: Proposal[];
}

/**
 * Everything a submission reads before it scores, in one read (one statement on PostgreSQL, one
 * round trip and one pool connection instead of three or four): the merchant's candidate patterns,
 * the possible duplicates among the company's proposals and among the provider's bookings, and a
 * supplier invoice's twins. Each part is mapped to the same domain objects the stores of its table
 * return; the write that follows is SubmissionStore's.
 */
export abstract class SubmissionReads {
  abstract read(companyId: string, query: SubmissionReadQuery): Promise<SubmissionReadings>;
}
