import { EntitySchema } from 'typeorm';

/** One row of `proposals`, the proposals' current state beside the event store (migration 1763780000002). */
export interface ProposalRow {
  id: string;
  companyId: string;
  correlationId: string;
  version: number;
  status: string;
  kind: string;
  merchant: string;
  merchantKey: string;
  amount: string;
  currency: string;
  accountingDate: string;
  accountCode: string;
  vatRate: string;
  description: string | null;
  receipt: unknown;
  thread: unknown;
  submittedBy: string;
  channel: string;
  submittedAt: Date;
  updatedAt: Date;
  confidence: string;
  route: string;
  reasons: unknown;
  executeAfter: Date | null;
  resubmissionOf: string | null;
  autoApproved: boolean;
  approvedBy: string | null;
  corrections: unknown;
  rejectedBy: string | null;
  rejectionReason: string | null;
  bookingProvider: string | null;
  bookingId: string | null;
  lastExecutionError: string | null;
  amountNok: string | null;
  receiptFingerprint: string | null;
  bookkeeping: unknown;
  readBack: unknown;
  reimbursement: unknown;
}

export const ProposalEntity = new EntitySchema<ProposalRow>({
  name: 'Proposal',
  tableName: 'proposals',
  columns: {
    id: { type: 'text', primary: true },
    companyId: { type: 'text', name: 'company_id' },
    correlationId: { type: 'text', name: 'correlation_id' },
    version: { type: 'int' },
    status: { type: 'text' },
    kind: { type: 'text' },
    merchant: { type: 'text' },
    merchantKey: { type: 'text', name: 'merchant_key' },
    amount: { type: 'bigint' },
    currency: { type: 'text' },
    accountingDate: { type: 'date', name: 'accounting_date' },
    accountCode: { type: 'text', name: 'account_code' },
    vatRate: { type: 'text', name: 'vat_rate' },
    description: { type: 'text', nullable: true },
    receipt: { type: 'jsonb', nullable: true },
    thread: { type: 'jsonb', nullable: true },
    submittedBy: { type: 'text', name: 'submitted_by' },
    channel: { type: 'text' },
    submittedAt: { type: 'timestamptz', name: 'submitted_at' },
    updatedAt: { type: 'timestamptz', name: 'updated_at' },
    confidence: { type: 'numeric' },
    route: { type: 'text' },
    reasons: { type: 'jsonb' },
    executeAfter: { type: 'timestamptz', name: 'execute_after', nullable: true },
    resubmissionOf: { type: 'text', name: 'resubmission_of', nullable: true },
    autoApproved: { type: 'boolean', name: 'auto_approved' },
    approvedBy: { type: 'text', name: 'approved_by', nullable: true },
    corrections: { type: 'jsonb', nullable: true },
    rejectedBy: { type: 'text', name: 'rejected_by', nullable: true },
    rejectionReason: { type: 'text', name: 'rejection_reason', nullable: true },
    bookingProvider: { type: 'text', name: 'booking_provider', nullable: true },
    bookingId: { type: 'text', name: 'booking_id', nullable: true },
    lastExecutionError: { type: 'text', name: 'last_execution_error', nullable: true },
    amountNok: { type: 'bigint', name: 'amount_nok', nullable: true },
    receiptFingerprint: { type: 'text', name: 'receipt_fingerprint', nullable: true },
    bookkeeping: { type: 'jsonb', nullable: true },
    readBack: { type: 'jsonb', name: 'read_back', nullable: true },
    reimbursement: { type: 'jsonb', nullable: true },
  },
});
