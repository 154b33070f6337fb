import type { EntityManager } from 'typeorm';
import type { SubmissionReadings, SubmissionReadQuery } from '@app/application';
import { TypeOrmSubmissionReads } from '../proposal/typeorm-submission-reads';

/**
 * What a submission of `query.merchantKey` reads (TypeOrmSubmissionReads), for the specs of the
 * tables it reads: no receipt, and a duplicate window that matches nothing unless `query` sets one.
 */
export function submissionRead(
  manager: EntityManager,
  companyId: string,
  query: Partial<SubmissionReadQuery> & Pick<SubmissionReadQuery, 'merchantKey'>,
): Promise<SubmissionReadings> {
  return new TypeOrmSubmissionReads(manager).read(companyId, {
    receiptSha256: null,
    receiptFingerprint: null,
    amountMin: 0,
    amountMax: 0,
    dateFrom: '1970-01-01',
    dateTo: '1970-01-01',
    submittedSince: new Date(0),
    supplierInvoice: null,
    ...query,
  });
}
