import type { EntityManager } from 'typeorm';
import { DEFAULT_CANDIDATE_LIMIT } from '@app/domain';
import { SubmissionReads, type SubmissionReadings, type SubmissionReadQuery } from '@app/application';
import { bookingOf, nearBookingsSelect, type BookingRecord } from '../history/provider-bookings';
import { candidatesFrom, candidatesSelect, PATTERN_TIMESTAMP_COLUMNS } from '../pattern/pattern-candidates';
import type { PatternRecord } from '../pattern/pattern.mapper';
import { jsonRowsOf, recordsFromJson, select, StatementParameters } from '../shared/sql';
import { proposalFromRecord, type ProposalRecord } from './proposal.mapper';
import { duplicateCandidatesSelect, PROPOSAL_TIMESTAMP_COLUMNS, supplierInvoicesSelect } from './proposal-queries';

type JsonRows = Record<string, unknown>[];

/**
 * SubmissionReads in ONE statement: the candidate query (pattern-candidates.ts), the duplicate and
 * (when asked) twin queries of proposals (proposal-queries.ts; the twins' is also
 * ProposalRepository.findSupplierInvoices) and the near bookings' (provider-bookings.ts), each a
 * JSON array column of one row, so a submission pays one round trip and one pool connection for
 * its reads. Each query keeps its own indexes (a scalar subquery is planned as it would be alone),
 * and its rows are mapped by its table's mapper.
 */
export class TypeOrmSubmissionReads extends SubmissionReads {
  constructor(private readonly manager: EntityManager) {
    super();
  }

  async read(companyId: string, query: SubmissionReadQuery): Promise<SubmissionReadings> {
    const { bind, values } = new StatementParameters();
    const candidates = candidatesSelect(bind, companyId, query.merchantKey, DEFAULT_CANDIDATE_LIMIT);
    const earlier = duplicateCandidatesSelect(bind, companyId, query);
    const booked = nearBookingsSelect(bind, companyId, query.amountMin, query.amountMax, query.dateFrom, query.dateTo);
    const invoice = query.supplierInvoice;
    const sameInvoice =
      invoice && supplierInvoicesSelect(bind, companyId, invoice.organizationNumber, invoice.invoiceNumber);
    const [row] = await select<{ candidates: JsonRows; earlier: JsonRows; booked: JsonRows; same_invoice: JsonRows }>(
      this.manager,
      `SELECT ${jsonRowsOf(candidates)} AS candidates, ${jsonRowsOf(earlier)} AS earlier,
              ${jsonRowsOf(booked)} AS booked, ${sameInvoice ? jsonRowsOf(sameInvoice) : `'[]'::json`} AS same_invoice`,
      values,
    );
    const proposals = (rows: JsonRows) =>
      recordsFromJson<ProposalRecord>(rows, PROPOSAL_TIMESTAMP_COLUMNS).map(proposalFromRecord);
    return {
      candidates: candidatesFrom(
        recordsFromJson<PatternRecord>(row.candidates, PATTERN_TIMESTAMP_COLUMNS),
        query.merchantKey,
      ),
      earlier: proposals(row.earlier),
      booked: recordsFromJson<BookingRecord>(row.booked, []).map(bookingOf),
      sameInvoice: proposals(row.same_invoice),
    };
  }
}
