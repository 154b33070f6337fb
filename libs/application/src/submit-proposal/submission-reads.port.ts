import type { DuplicateCandidateQuery, HistoricalBooking, Pattern, Proposal } from '@app/domain';

/** What a submission reads before it scores: its merchant's key and the ranges of a possible duplicate. */
export interface SubmissionReadQuery extends DuplicateCandidateQuery {
  /** A supplier invoice's supplier and number, to find its twins; null for any other submission. */
  readonly supplierInvoice: { readonly organizationNumber: string; readonly invoiceNumber: string } | null;
}

/** What SubmissionReads.read found, each part as the port that owns its table would return it. */
export interface SubmissionReadings {
  /** The merchant's candidate patterns: PatternStore.findCandidates(company, query.merchantKey). */
  readonly candidates: Pattern[];
  /** The proposals it may repeat: ProposalRepository.findDuplicateCandidates(company, query). */
  readonly earlier: Proposal[];
  /** The provider's bookings it may repeat: BookingHistoryStore.findNear over the query's amounts and dates. */
  readonly booked: HistoricalBooking[];
  /** The supplier invoice's twins: ProposalRepository.findSupplierInvoices; empty when not asked. */
  readonly sameInvoice: Proposal[];
}

/**
 * Everything a submission reads before it scores, in one read (one statement on PostgreSQL, one
 * round trip and one pool connection instead of three or four): the merchant's candidate patterns,
 * the possible duplicates among the company's proposals and among the provider's bookings, and a
 * supplier invoice's twins. Each part is exactly what the port that owns its table returns for the
 * same question; the write that follows is SubmissionStore's.
 */
export abstract class SubmissionReads {
  abstract read(companyId: string, query: SubmissionReadQuery): Promise<SubmissionReadings>;
}
