import { SubmissionReads, type SubmissionReadings, type SubmissionReadQuery } from '@app/application';
import type { InMemoryBookingHistoryStore } from './in-memory-booking-history-store';
import type { InMemoryPatternStore } from './in-memory-pattern-store';
import type { InMemoryProposalRepository } from './in-memory-proposal-repository';

/**
 * SubmissionReads over the in-memory stores of the three tables it reads, each asked as its own port
 * answers. Contract: submission-reads.contract.ts.
 */
export class InMemorySubmissionReads extends SubmissionReads {
  constructor(
    private readonly patterns: InMemoryPatternStore,
    private readonly proposals: InMemoryProposalRepository,
    private readonly history: InMemoryBookingHistoryStore,
  ) {
    super();
  }

  async read(companyId: string, query: SubmissionReadQuery): Promise<SubmissionReadings> {
    const invoice = query.supplierInvoice;
    return {
      candidates: await this.patterns.findCandidates(companyId, query.merchantKey),
      earlier: await this.proposals.findDuplicateCandidates(companyId, query),
      booked: await this.history.findNear(companyId, query.amountMin, query.amountMax, query.dateFrom, query.dateTo),
      sameInvoice: invoice
        ? await this.proposals.findSupplierInvoices(companyId, invoice.organizationNumber, invoice.invoiceNumber)
        : [],
    };
  }
}
