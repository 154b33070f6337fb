import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsArray, IsIn, IsObject, IsOptional, IsString, Length, Matches, ValidateNested } from 'class-validator';
import {
  CHANNELS,
  MAX_DESCRIPTION_LENGTH,
  MAX_MERCHANT_LENGTH,
  MAX_INVOICE_NUMBER_LENGTH,
  MAX_LINES,
  MAX_RECEIPT_BYTES,
  PAID_WITH,
  PROPOSAL_KINDS,
  VAT_TREATMENTS,
  PROPOSAL_STATUSES,
  RECEIPT_CONTENT_TYPES,
  ROUTES,
  describeConfidenceBands,
} from '@app/domain';
import { EventDto } from '../events/event.dto';

export const MONEY_PATTERN = /^(0|[1-9]\d{0,12})(\.\d{1,2})?$/;
export const VAT_RATE_PATTERN = /^(0|[1-9]\d{0,2})(\.\d{1,2})?$/;
export const ACCOUNT_CODE_PATTERN = /^\d{4,6}$/;
const CURRENCY_PATTERN = /^[A-Z]{3}$/;
export const DATE_PATTERN = /^\d{4}-\d{2}-\d{2}$/;
/** Base64 of MAX_RECEIPT_BYTES, padded. */
const MAX_BASE64_LENGTH = Math.ceil(MAX_RECEIPT_BYTES / 3) * 4;

/*
 * The request body of POST /v1/proposals, checked by the global validation pipe like every other
 * body: unknown fields are refused and each field's type and form are checked, every problem listed
 * at once (400 validation_failed, errors[]). The messages are the domain's. The content's rules
 * (a positive amount, a real calendar date, a receipt that is what it says, lengths after trimming,
 * the company's chart) stay with the domain and the use case.
 */

export class ReceiptUploadDto {
  @ApiProperty({ example: 'r.pdf', minLength: 1, maxLength: 255 })
  @IsString({ message: 'receipt.filename must be a non-empty string' })
  filename!: string;

  @ApiProperty({
    enum: RECEIPT_CONTENT_TYPES,
    description: 'must match the file: the first bytes are checked, and a PDF must parse as one, with a page',
  })
  @IsIn(RECEIPT_CONTENT_TYPES, { message: `receipt.contentType must be one of ${RECEIPT_CONTENT_TYPES.join(', ')}` })
  contentType!: string;

  @ApiProperty({
    format: 'byte',
    maxLength: MAX_BASE64_LENGTH,
    description: 'the file in standard base64 with padding, at most 7 MiB decoded',
  })
  @IsString({ message: 'receipt.dataBase64 must be the file encoded as standard base64 with padding' })
  dataBase64!: string;
}

export class ThreadDto {
  @ApiProperty({ enum: CHANNELS })
  @IsIn(CHANNELS, { message: `thread.channel must be one of ${CHANNELS.join(', ')}` })
  channel!: string;

  @ApiProperty({ example: 'C01/1700000000.000100', minLength: 1, maxLength: 255 })
  @IsString({ message: 'thread.threadId must be a non-empty string' })
  threadId!: string;
}

/** POST /proposals (docs/api.md §4.1). Unknown fields are refused. */
export class SubmitProposalDto {
  @ApiProperty({ enum: PROPOSAL_KINDS, example: 'expense' })
  @IsIn(PROPOSAL_KINDS, { message: `kind must be one of ${PROPOSAL_KINDS.join(', ')}` })
  kind!: string;

  @ApiProperty({ example: 'Spotify AB', minLength: 1, maxLength: MAX_MERCHANT_LENGTH })
  @IsString({ message: 'merchant must be a non-empty string' })
  merchant!: string;

  @ApiProperty({
    example: '119.00',
    pattern: MONEY_PATTERN.source,
    description: 'decimal string, > 0, at most 2 fraction digits; VAT included',
  })
  @Matches(MONEY_PATTERN, {
    message: 'amount must be a decimal string with at most 2 fraction digits, such as "1249.50"',
  })
  amount!: string;

  @ApiProperty({ example: 'NOK', pattern: CURRENCY_PATTERN.source, description: 'ISO 4217' })
  @Matches(CURRENCY_PATTERN, {
    message: 'currency must be an ISO 4217 code of three uppercase letters, such as "NOK"',
  })
  currency!: string;

  @ApiPropertyOptional({
    type: String,
    example: '1462.50',
    pattern: MONEY_PATTERN.source,
    nullable: true,
    description:
      'the amount actually paid in NOK, VAT included, for an expense in another currency: required then ' +
      '(422 nok_amount_required without it); leave it out for NOK. The providers book this amount.',
  })
  @IsOptional()
  @Matches(MONEY_PATTERN, {
    message: 'amountNok must be a decimal string with at most 2 fraction digits, such as "1462.50"',
  })
  amountNok?: string | null;

  @ApiProperty({
    example: '2026-11-20',
    format: 'date',
    description:
      'the accounting date, YYYY-MM-DD: at most one day after today in Norway; ' +
      "one before the company's open period (settings: openPeriodStart) is never auto-approved",
  })
  @Matches(DATE_PATTERN, { message: 'date must be a date in the form YYYY-MM-DD' })
  date!: string;

  @ApiPropertyOptional({
    example: '6540',
    pattern: ACCOUNT_CODE_PATTERN.source,
    description:
      "an account of the company's chart, 4 to 6 digits; required without `lines`, and with `lines` " +
      "the largest line's (left out, it is taken from there)",
  })
  @IsOptional()
  @Matches(ACCOUNT_CODE_PATTERN, { message: 'accountCode must be an account number of 4 to 6 digits, such as "6540"' })
  accountCode?: string;

  @ApiPropertyOptional({
    example: '25',
    pattern: VAT_RATE_PATTERN.source,
    description:
      "VAT percentage as a decimal string; required without `lines`, and with `lines` the largest line's. " +
      'Under foreign_no_deduction it is the VAT paid abroad, recorded but not checked against the chart',
  })
  @IsOptional()
  @Matches(VAT_RATE_PATTERN, {
    message: 'vatRate must be a percentage as a decimal string with at most 2 decimals, such as "25"',
  })
  vatRate?: string;

  @ApiPropertyOptional({
    type: String,
    example: 'Spotify Premium',
    minLength: 1,
    maxLength: MAX_DESCRIPTION_LENGTH,
    nullable: true,
  })
  @IsOptional()
  @IsString({ message: 'description must be a non-empty string' })
  description?: string | null;

  @ApiPropertyOptional({ type: ReceiptUploadDto, nullable: true })
  @IsOptional()
  @IsObject({ message: 'receipt must be an object' })
  @ValidateNested()
  @Type(() => ReceiptUploadDto)
  receipt?: ReceiptUploadDto | null;

  @ApiPropertyOptional({
    type: ThreadDto,
    nullable: true,
    description: 'where the user is told about auto-approval or rejection',
  })
  @IsOptional()
  @IsObject({ message: 'thread must be an object' })
  @ValidateNested()
  @Type(() => ThreadDto)
  thread?: ThreadDto | null;

  @ApiPropertyOptional({
    nullable: true,
    type: String,
    description: 'the id of a REJECTED proposal this one corrects: it joins that chain',
  })
  @IsOptional()
  @Length(1, 255, { message: 'resubmissionOf must be the id of a rejected proposal, or null' })
  resubmissionOf?: string | null;

  @ApiPropertyOptional({
    enum: PAID_WITH,
    nullable: true,
    description:
      'how an expense was paid (default bank): credited to the company’s paymentAccounts[paidWith]; ' +
      '`employee` = out of pocket, owed to the submitter. Left out for a supplier invoice (unpaid)',
  })
  @IsOptional()
  @IsIn(PAID_WITH, { message: `paidWith must be one of ${PAID_WITH.join(', ')}` })
  paidWith?: string | null;

  @ApiPropertyOptional({
    enum: VAT_TREATMENTS,
    nullable: true,
    description:
      'domestic (default for NOK), foreign_no_deduction (VAT paid abroad: booked gross, code 0) or ' +
      'reverse_charge (a service bought from abroad, 25 % → code 86, 12 % → code 88; not in NOK: 422 ' +
      'vat_treatment_not_applicable). A foreign-currency purchase with VAT must name one (422 vat_treatment_required)',
  })
  @IsOptional()
  @IsIn(VAT_TREATMENTS, { message: `vatTreatment must be one of ${VAT_TREATMENTS.join(', ')}` })
  vatTreatment?: string | null;

  @ApiPropertyOptional({
    type: () => [ExpenseLineDto],
    maxItems: MAX_LINES,
    nullable: true,
    description: `1 to ${MAX_LINES} lines whose amounts add up to amount exactly, each booked on its own account and VAT code; without lines, accountCode, vatRate and amount are the one line`,
  })
  @IsOptional()
  @IsArray({ message: 'lines must be an array of lines' })
  lines?: ExpenseLineDto[] | null;

  @ApiPropertyOptional({
    type: () => SupplierDto,
    nullable: true,
    description: 'a supplier invoice’s supplier (required then; refused on an expense)',
  })
  @IsOptional()
  @IsObject({ message: 'supplier must be an object {name, organizationNumber, bankAccount?, kid?}' })
  supplier?: SupplierDto | null;

  @ApiPropertyOptional({
    type: String,
    nullable: true,
    maxLength: MAX_INVOICE_NUMBER_LENGTH,
    description: 'a supplier invoice’s number (required then)',
  })
  @IsOptional()
  @IsString({ message: 'invoiceNumber must be a non-empty string' })
  invoiceNumber?: string | null;

  @ApiPropertyOptional({
    type: String,
    format: 'date',
    nullable: true,
    description: 'a supplier invoice’s due date, YYYY-MM-DD, not before date (required then)',
  })
  @IsOptional()
  @Matches(DATE_PATTERN, { message: 'dueDate must be a date in the form YYYY-MM-DD' })
  dueDate?: string | null;

  @ApiPropertyOptional({
    type: String,
    nullable: true,
    description: 'the provider’s department id to post on, where the account requires one',
  })
  @IsOptional()
  @IsString({ message: 'departmentId must be a non-empty string' })
  departmentId?: string | null;
}

/** One line of a proposal: checked by the domain, field by field (`lines[1].amount`). */
export class ExpenseLineDto {
  @ApiProperty({ example: '7160', pattern: ACCOUNT_CODE_PATTERN.source }) accountCode!: string;
  @ApiProperty({ example: '15', pattern: VAT_RATE_PATTERN.source }) vatRate!: string;
  @ApiProperty({ example: '115.00', pattern: MONEY_PATTERN.source, description: 'gross, VAT included' })
  amount!: string;
  @ApiPropertyOptional({ type: String, nullable: true, maxLength: MAX_DESCRIPTION_LENGTH })
  description?: string | null;
}

/** The supplier of a supplier invoice: found (or created) at the provider by organisation number. */
export class SupplierDto {
  @ApiProperty({ example: 'Kontorrekvisita AS', maxLength: MAX_MERCHANT_LENGTH }) name!: string;
  @ApiProperty({ example: '923609016', description: '9 digits with a valid mod-11 check digit' })
  organizationNumber!: string;
  @ApiPropertyOptional({
    type: String,
    nullable: true,
    example: '12345678903',
    description: 'Norwegian bank account, 11 digits with a valid mod-11 check digit (dots and spaces ignored)',
  })
  bankAccount?: string | null;
  @ApiPropertyOptional({
    type: String,
    nullable: true,
    example: '12345674',
    description: 'KID, 2 to 25 digits with a valid mod-10 or mod-11 check digit',
  })
  kid?: string | null;
}

/** A posting in NOK: debit positive, credit negative (docs/bookkeeping.md). */
export class PostingPartyDto {
  @ApiProperty({ enum: ['supplier', 'employee'] }) kind!: string;
  @ApiProperty({ example: 'Kontorrekvisita AS' }) name!: string;
  @ApiPropertyOptional({ type: String, nullable: true, example: '923609016' }) organizationNumber?: string | null;
  @ApiPropertyOptional({ type: String, nullable: true }) providerId?: string | null;
}

export class PostingDto {
  @ApiProperty({ example: '6540' }) accountCode!: string;
  @ApiProperty({ example: '-125.00', description: 'NOK, debit positive, credit negative' }) amount!: string;
  @ApiProperty({ type: String, nullable: true, example: '1', description: 'Norwegian standard (SAF-T) VAT code' })
  vatCode!: string | null;
  @ApiProperty({ type: PostingPartyDto, nullable: true }) party!: PostingPartyDto | null;
  @ApiProperty({ type: String, nullable: true }) description!: string | null;
  @ApiProperty({ description: 'a VAT posting the provider makes from the line’s VAT code' }) generated!: boolean;
  @ApiPropertyOptional({ type: String, nullable: true }) invoiceNumber?: string | null;
  @ApiPropertyOptional({ type: String, nullable: true }) dueDate?: string | null;
  @ApiPropertyOptional({ type: String, nullable: true }) kid?: string | null;
}

export class ReceiptMetadataDto {
  @ApiProperty({ example: 'r.pdf' }) filename!: string;
  @ApiProperty({ enum: RECEIPT_CONTENT_TYPES }) contentType!: string;
  @ApiProperty({ type: 'integer', minimum: 0, example: 48213 }) sizeBytes!: number;
  @ApiProperty({
    example: 'b94d27b9934d3e08a52e52d7da7dabfac484efe37a5380ee9088f7ace2efcde9',
    description: 'hex SHA-256 of the file',
  })
  sha256!: string;
}

export class CorrectionsDto {
  @ApiPropertyOptional({ example: '6540' }) accountCode?: string;
  @ApiPropertyOptional({ example: '25' }) vatRate?: string;
  @ApiPropertyOptional({ example: 'domestic' }) vatTreatment?: string;
  @ApiPropertyOptional({ example: 'employee' }) paidWith?: string;
  @ApiPropertyOptional({ type: 'array', items: { type: 'object' }, description: 'amounts as decimal strings' })
  lines?: readonly object[];
  @ApiPropertyOptional({ type: 'object', additionalProperties: true }) supplier?: object;
  @ApiPropertyOptional({ format: 'date' }) dueDate?: string;
  @ApiPropertyOptional({ type: String, nullable: true }) departmentId?: string | null;
}

export class BookingDto {
  @ApiProperty({ example: 'tripletex' }) provider!: string;
  @ApiProperty({ example: '608853177' }) bookingId!: string;
}

/** Whether an executed employee outlay was paid back to the employee (GET /reimbursements, §4.9). */
export class ProposalReimbursementDto {
  @ApiProperty({ enum: ['open', 'paid'], description: 'open until an accountant marks it paid back' })
  status!: 'open' | 'paid';
  @ApiPropertyOptional({ format: 'date', example: '2026-11-27', description: 'paid only: the day it was paid back' })
  paidOn?: string;
  @ApiPropertyOptional({
    type: String,
    nullable: true,
    example: 'Nettbank 2026-11-27',
    description: "paid only: the payout's reference, null when none was given",
  })
  reference?: string | null;
  @ApiPropertyOptional({ example: 'kari@example.no', description: 'paid only: who marked it paid back' })
  paidBy?: string;
  @ApiPropertyOptional({ format: 'date-time', description: 'paid only: when it was marked paid back' })
  paidAt?: string;
}

/** A proposal (the response of POST /proposals, GET /proposals/{id} and the review operations). */
export class ProposalDto {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty({ format: 'uuid', description: 'the chain; a resubmission shares its predecessor’s' })
  correlationId!: string;
  @ApiProperty({ enum: PROPOSAL_STATUSES }) status!: string;
  @ApiProperty({
    minimum: 0,
    maximum: 1,
    example: 0.96,
    description: "the ConfidenceEngine's score at submission, 0–1",
  })
  confidence!: number;
  @ApiProperty({ enum: ROUTES, description: describeConfidenceBands() })
  route!: string;
  @ApiProperty({
    type: [String],
    example: ['exact merchant match: spotify', 'account and VAT agree with 14 approvals'],
  })
  reasons!: string[];
  @ApiProperty({
    nullable: true,
    type: String,
    format: 'date-time',
    example: '2026-11-20T10:15:00.000Z',
    description: 'not executed before; null until approved',
  })
  executeAfter!: string | null;
  @ApiProperty({ enum: PROPOSAL_KINDS }) kind!: string;
  @ApiProperty({ example: 'Spotify AB' }) merchant!: string;
  @ApiProperty({ example: '119.00' }) amount!: string;
  @ApiProperty({ example: 'NOK' }) currency!: string;
  @ApiPropertyOptional({
    type: String,
    example: '1462.50',
    description: 'the NOK amount paid, for an expense in another currency only (absent for NOK)',
  })
  amountNok?: string;
  @ApiProperty({ format: 'date', example: '2026-11-20' }) date!: string;
  @ApiProperty({ example: '6540', description: 'after corrections' }) accountCode!: string;
  @ApiProperty({ example: '25', description: 'after corrections' }) vatRate!: string;
  @ApiProperty({ nullable: true, type: String }) description!: string | null;
  @ApiProperty({ type: ReceiptMetadataDto, nullable: true }) receipt!: ReceiptMetadataDto | null;
  @ApiProperty({ type: ThreadDto, nullable: true }) thread!: ThreadDto | null;
  @ApiProperty({ nullable: true, type: String, format: 'uuid' }) resubmissionOf!: string | null;
  @ApiProperty({ example: 'ola@example.no' }) submittedBy!: string;
  @ApiProperty({ format: 'date-time', example: '2026-11-20T10:00:00.000Z' }) submittedAt!: string;
  @ApiProperty({ format: 'date-time', example: '2026-11-20T10:00:00.000Z' }) updatedAt!: string;
  @ApiProperty() autoApproved!: boolean;
  @ApiProperty({ nullable: true, type: String }) approvedBy!: string | null;
  @ApiProperty({ type: CorrectionsDto, nullable: true }) corrections!: CorrectionsDto | null;
  @ApiProperty({ nullable: true, type: String }) rejectedBy!: string | null;
  @ApiProperty({ nullable: true, type: String }) rejectionReason!: string | null;
  @ApiProperty({ type: BookingDto, nullable: true }) booking!: BookingDto | null;
  @ApiProperty({
    type: ProposalReimbursementDto,
    nullable: true,
    description:
      'an executed employee outlay (kind expense, paidWith employee): whether the employee was paid back; null for anything else',
  })
  reimbursement!: ProposalReimbursementDto | null;
  @ApiProperty({ nullable: true, type: String, description: 'the last permanent execution failure' })
  lastExecutionError!: string | null;
  @ApiProperty({ enum: PAID_WITH, nullable: true, description: 'null for a supplier invoice' })
  paidWith!: string | null;
  @ApiProperty({ enum: VAT_TREATMENTS }) vatTreatment!: string;
  @ApiProperty({ type: [ExpenseLineDto], description: 'at least one; amounts add up to amount' })
  lines!: ExpenseLineDto[];
  @ApiProperty({ type: SupplierDto, nullable: true }) supplier!: SupplierDto | null;
  @ApiProperty({ type: String, nullable: true }) invoiceNumber!: string | null;
  @ApiProperty({ type: String, nullable: true, format: 'date' }) dueDate!: string | null;
  @ApiProperty({ type: String, nullable: true }) departmentId!: string | null;
  @ApiPropertyOptional({
    type: [PostingDto],
    nullable: true,
    description:
      'GET only: the postings the booking makes — planned before execution (with the company’s accounts ' +
      'now), read back from the provider after it (see postingsSource); null when the planned credit ' +
      'account is not configured (postingsProblem says why)',
  })
  postings?: PostingDto[] | null;
  @ApiPropertyOptional({ enum: ['planned', 'booked'], type: String, nullable: true })
  postingsSource?: string | null;
  @ApiPropertyOptional({ type: String, nullable: true, description: 'why no postings can be planned' })
  postingsProblem?: string | null;
  @ApiPropertyOptional({
    type: [PostingDto],
    nullable: true,
    description: 'GET only, after execution: the postings planned when it was executed',
  })
  plannedPostings?: PostingDto[] | null;
  @ApiPropertyOptional({
    type: [String],
    description:
      'GET only, after execution: how the postings read back differ from the planned ones (empty: they agree)',
  })
  postingDifferences?: string[];
  @ApiPropertyOptional({
    type: String,
    nullable: true,
    description: 'GET only, after execution: why the postings could not be read back from the provider',
  })
  postingsReadBackError?: string | null;
  @ApiProperty({ type: [EventDto], description: "this proposal's events, oldest first (POST: the ones it stored)" })
  events!: EventDto[];
}
