import type {
  Channel,
  Corrections,
  ExpenseDetails,
  PostingsReadBack,
  Proposal,
  ProposalKind,
  ProposalStatus,
  ReceiptMetadata,
  Reimbursement,
  Route,
  ThreadRef,
} from '@app/domain';
import { withExpenseDefaults } from '@app/domain';
import { toNumber } from '../shared/sql';

/** The proposal columns in the order of PROPOSAL_SELECT / proposalParameters. */
export const PROPOSAL_COLUMN_NAMES = [
  'id',
  'company_id',
  'correlation_id',
  'version',
  'status',
  'kind',
  'merchant',
  'merchant_key',
  'amount',
  'currency',
  'accounting_date',
  'account_code',
  'vat_rate',
  'description',
  'receipt',
  'thread',
  'submitted_by',
  'channel',
  'submitted_at',
  'updated_at',
  'confidence',
  'route',
  'reasons',
  'execute_after',
  'resubmission_of',
  'auto_approved',
  'approved_by',
  'corrections',
  'rejected_by',
  'rejection_reason',
  'booking_provider',
  'booking_id',
  'last_execution_error',
  'amount_nok',
  'receipt_fingerprint',
  'bookkeeping',
  'read_back',
  'reimbursement',
] as const;

/** SELECT list: the date as `YYYY-MM-DD` text (node-pg would turn a `date` into a local-time Date). */
export const PROPOSAL_SELECT = PROPOSAL_COLUMN_NAMES.map((column) =>
  column === 'accounting_date' ? `to_char(accounting_date, 'YYYY-MM-DD') AS accounting_date` : column,
).join(', ');

export type ProposalRecord = Record<(typeof PROPOSAL_COLUMN_NAMES)[number], unknown>;

export function proposalFromRecord(row: ProposalRecord): Proposal {
  const bookingId = row.booking_id as string | null;
  return withExpenseDefaults({
    id: row.id as string,
    companyId: row.company_id as string,
    correlationId: row.correlation_id as string,
    version: row.version as number,
    status: row.status as ProposalStatus,
    kind: row.kind as ProposalKind,
    merchant: row.merchant as string,
    merchantKey: row.merchant_key as string,
    amount: toNumber(row.amount),
    currency: row.currency as string,
    date: row.accounting_date as string,
    accountCode: row.account_code as string,
    vatRate: row.vat_rate as string,
    description: row.description as string | null,
    receipt: row.receipt as ReceiptMetadata | null,
    thread: row.thread as ThreadRef | null,
    submittedBy: row.submitted_by as string,
    channel: row.channel as Channel,
    submittedAt: row.submitted_at as Date,
    updatedAt: row.updated_at as Date,
    confidence: toNumber(row.confidence),
    route: row.route as Route,
    reasons: row.reasons as string[],
    executeAfter: row.execute_after as Date | null,
    resubmissionOf: row.resubmission_of as string | null,
    autoApproved: row.auto_approved as boolean,
    approvedBy: row.approved_by as string | null,
    corrections: row.corrections as Corrections | null,
    rejectedBy: row.rejected_by as string | null,
    rejectionReason: row.rejection_reason as string | null,
    booking: bookingId === null ? null : { provider: row.booking_provider as string, bookingId },
    lastExecutionError: row.last_execution_error as string | null,
    amountNok: row.amount_nok === null || row.amount_nok === undefined ? null : toNumber(row.amount_nok),
    receiptFingerprint: (row.receipt_fingerprint as string | null | undefined) ?? null,
    ...(row.read_back ? { readBack: row.read_back as PostingsReadBack } : {}),
    ...(row.reimbursement ? { reimbursement: reimbursementFromColumn(row.reimbursement as ReimbursementColumn) } : {}),
    // A row stored before proposals carried these (null) gets withExpenseDefaults' values.
    ...((row.bookkeeping as BookkeepingColumn | null | undefined) ?? {}),
  });
}

/** `proposals.bookkeeping` (migration 1764270000001): the bookkeeping fields, amounts in minor units. */
type BookkeepingColumn = Pick<
  ExpenseDetails,
  'paidWith' | 'vatTreatment' | 'lines' | 'supplier' | 'invoiceNumber' | 'dueDate' | 'departmentId'
>;

function bookkeepingColumn(p: Proposal): BookkeepingColumn {
  return {
    paidWith: p.paidWith,
    vatTreatment: p.vatTreatment,
    lines: p.lines,
    supplier: p.supplier,
    invoiceNumber: p.invoiceNumber,
    dueDate: p.dueDate,
    departmentId: p.departmentId,
  };
}

const json = (value: unknown): string | null => (value === null || value === undefined ? null : JSON.stringify(value));

/** Parameters in PROPOSAL_COLUMN_NAMES order. */
export function proposalParameters(p: Proposal): unknown[] {
  return [
    p.id,
    p.companyId,
    p.correlationId,
    p.version,
    p.status,
    p.kind,
    p.merchant,
    p.merchantKey,
    p.amount,
    p.currency,
    p.date,
    p.accountCode,
    p.vatRate,
    p.description,
    json(p.receipt),
    json(p.thread),
    p.submittedBy,
    p.channel,
    p.submittedAt,
    p.updatedAt,
    p.confidence,
    p.route,
    JSON.stringify(p.reasons),
    p.executeAfter,
    p.resubmissionOf,
    p.autoApproved,
    p.approvedBy,
    json(p.corrections),
    p.rejectedBy,
    p.rejectionReason,
    p.booking?.provider ?? null,
    p.booking?.bookingId ?? null,
    p.lastExecutionError,
    p.amountNok,
    p.receiptFingerprint,
    JSON.stringify(bookkeepingColumn(p)),
    json(p.readBack),
    p.reimbursement ? JSON.stringify(reimbursementColumn(p.reimbursement)) : null,
  ];
}

/** `proposals.reimbursement` (migration 1764320000001): the time as RFC 3339 text. */
type ReimbursementColumn = Omit<Reimbursement, 'markedAt'> & { markedAt: string };

function reimbursementColumn(r: Reimbursement): ReimbursementColumn {
  return { paidOn: r.paidOn, reference: r.reference, markedBy: r.markedBy, markedAt: r.markedAt.toISOString() };
}

function reimbursementFromColumn(c: ReimbursementColumn): Reimbursement {
  return { paidOn: c.paidOn, reference: c.reference, markedBy: c.markedBy, markedAt: new Date(c.markedAt) };
}
