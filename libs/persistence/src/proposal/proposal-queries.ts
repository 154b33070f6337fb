import {
  DUPLICATE_CANDIDATE_LIMIT,
  RECEIPT_IMAGE_HASH_MAX_DISTANCE,
  normalizeInvoiceNumber,
  type DuplicateCandidateQuery,
} from '@app/domain';
import { INVOICE_NUMBER_SQL } from '../migrations/1764330000002-supplier-invoice-number-normalised';
import type { Bind, OrderedSelect } from '../shared/sql';
import { PROPOSAL_SELECT } from './proposal.mapper';

/** The timestamptz columns of PROPOSAL_SELECT, for recordsFromJson. */
export const PROPOSAL_TIMESTAMP_COLUMNS = ['submitted_at', 'updated_at', 'execute_after'] as const;

/**
 * The possible duplicates' query (DuplicateCandidateQuery): indexed probes
 * (proposals_duplicate_purchase_idx, proposals_duplicate_receipt_idx,
 * proposals_duplicate_fingerprint_idx). An image's near fingerprints are the company's image
 * fingerprints within RECEIPT_IMAGE_HASH_MAX_DISTANCE bits (sameReceipt); the CASE keeps the hex
 * cast to image fingerprints.
 */
export function duplicateCandidatesSelect(
  bind: Bind,
  companyId: string,
  query: DuplicateCandidateQuery,
): OrderedSelect {
  const image = query.receiptFingerprint?.startsWith('phash:') ? query.receiptFingerprint : null;
  const [sha256, fingerprint, imageFingerprint] = [
    bind(query.receiptSha256),
    bind(query.receiptFingerprint),
    bind(image),
  ];
  const order = 'submitted_at DESC, id DESC';
  return {
    sql: `SELECT ${PROPOSAL_SELECT} FROM proposals
           WHERE company_id = ${bind(companyId)} AND status <> 'REJECTED' AND submitted_at >= ${bind(query.submittedSince)}
             AND ((merchant_key = ${bind(query.merchantKey)}
                   AND COALESCE(amount_nok, amount) BETWEEN ${bind(query.amountMin)} AND ${bind(query.amountMax)}
                   AND accounting_date BETWEEN ${bind(query.dateFrom)} AND ${bind(query.dateTo)})
                  OR (${sha256}::text IS NOT NULL AND receipt->>'sha256' = ${sha256}::text)
                  OR (${fingerprint}::text IS NOT NULL AND receipt_fingerprint = ${fingerprint}::text)
                  OR (${imageFingerprint}::text IS NOT NULL AND receipt_fingerprint LIKE 'phash:%'
                      AND CASE WHEN receipt_fingerprint LIKE 'phash:%'
                               THEN bit_count(('x' || substr(receipt_fingerprint, 7))::bit(64)
                                              # ('x' || substr(${imageFingerprint}::text, 7))::bit(64))
                          END <= ${bind(RECEIPT_IMAGE_HASH_MAX_DISTANCE)}))
           ORDER BY ${order} LIMIT ${bind(DUPLICATE_CANDIDATE_LIMIT)}`,
    order,
  };
}

/**
 * A supplier invoice's twins (ProposalRepository.findSupplierInvoices): proposals_supplier_invoice_idx
 * (migration 1764330000002), whose expressions these are; INVOICE_NUMBER_SQL is normalizeInvoiceNumber.
 */
export function supplierInvoicesSelect(
  bind: Bind,
  companyId: string,
  organizationNumber: string,
  invoiceNumber: string,
): OrderedSelect {
  const order = 'submitted_at, id';
  return {
    sql: `SELECT ${PROPOSAL_SELECT} FROM proposals
           WHERE company_id = ${bind(companyId)} AND kind = 'supplier_invoice' AND status <> 'REJECTED'
             AND (bookkeeping #>> '{supplier,organizationNumber}') = ${bind(organizationNumber)}
             AND ${INVOICE_NUMBER_SQL} = ${bind(normalizeInvoiceNumber(invoiceNumber))}
           ORDER BY ${order}`,
    order,
  };
}
