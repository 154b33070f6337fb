import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsEmail, IsIn, IsOptional, IsString, Length, Matches, MaxLength } from 'class-validator';
import { MAX_REIMBURSEMENT_REFERENCE_LENGTH, REIMBURSEMENT_STATUSES, type ReimbursementStatus } from '@app/domain';
import { PageQueryDto } from '../events/event.dto';
import { DATE_PATTERN, MONEY_PATTERN } from '../proposals/proposal.dto';

const MONEY = { example: '412.50', pattern: MONEY_PATTERN.source } as const;

/** GET /reimbursements's query (docs/api.md §4.9). */
export class ListReimbursementsQueryDto extends PageQueryDto {
  @ApiPropertyOptional({
    enum: REIMBURSEMENT_STATUSES,
    default: 'open',
    description: 'open: not yet marked paid back; paid: marked paid back; all: both',
  })
  @IsOptional()
  @IsIn(REIMBURSEMENT_STATUSES, { message: `status must be one of ${REIMBURSEMENT_STATUSES.join(', ')}` })
  status?: ReimbursementStatus;

  @ApiPropertyOptional({
    format: 'email',
    maxLength: 320,
    example: 'ola@demo.no',
    description: "the employee's (submitter's) email, any letter case; an employee may name only themself",
  })
  @IsOptional()
  @MaxLength(320, { message: 'employee must be an email address' })
  @IsEmail({}, { message: 'employee must be an email address' })
  employee?: string;
}

export class MarkReimbursementPaidDto {
  @ApiPropertyOptional({
    format: 'date',
    example: '2026-11-27',
    description: 'the day the employee was paid back; default today in Norway; at most one day ahead',
  })
  @IsOptional()
  @Matches(DATE_PATTERN, { message: 'paidOn must be a date in the form YYYY-MM-DD' })
  paidOn?: string;

  @ApiPropertyOptional({
    minLength: 1,
    maxLength: MAX_REIMBURSEMENT_REFERENCE_LENGTH,
    example: 'Nettbank 2026-11-27',
    description: "the payout's reference (a bank transfer's), kept for the accountant",
  })
  @IsOptional()
  @IsString({ message: 'reference must be a string' })
  @Length(1, MAX_REIMBURSEMENT_REFERENCE_LENGTH, {
    message: `reference must be 1 to ${MAX_REIMBURSEMENT_REFERENCE_LENGTH} characters`,
  })
  reference?: string;
}

export class ReimbursementEmployeeDto {
  @ApiProperty({ format: 'email', description: "the submitter's email: who is owed" }) email!: string;
  @ApiProperty({
    nullable: true,
    type: String,
    description: "the employee mapping's user id, when the company has mapped this email",
  })
  userId!: string | null;
  @ApiProperty({
    nullable: true,
    type: String,
    description: "the employee's id at the provider (Tripletex employee, Fiken contact), when mapped",
  })
  providerEmployeeId!: string | null;
}

export class ReimbursementPaymentDto {
  @ApiProperty({ format: 'date', description: 'the day the employee was paid back' }) paidOn!: string;
  @ApiProperty({ nullable: true, type: String, description: "the payout's reference, when given" })
  reference!: string | null;
  @ApiProperty({ description: 'who marked it paid back' }) markedBy!: string;
  @ApiProperty({ format: 'date-time', description: 'when it was marked paid back' }) markedAt!: string;
}

export class ReimbursementBookingDto {
  @ApiProperty({ example: 'tripletex', description: 'the provider it was booked at' }) provider!: string;
  @ApiProperty({ description: "the provider's reference: a Tripletex voucher id, a Fiken purchase id" })
  bookingId!: string;
}

/** One executed employee outlay: what the company owes the employee (or paid back). */
export class ReimbursementDto {
  @ApiProperty({ description: "the expense's proposal id" }) proposalId!: string;
  @ApiProperty({ enum: ['open', 'paid'], description: 'open until marked paid back' }) status!: 'open' | 'paid';
  @ApiProperty({ type: ReimbursementEmployeeDto }) employee!: ReimbursementEmployeeDto;
  @ApiProperty({ ...MONEY, description: 'what the employee is owed in NOK (the booked amount), a decimal string' })
  amountNok!: string;
  @ApiProperty({ example: 'NOK', description: "the receipt's currency (ISO 4217)" }) currency!: string;
  @ApiProperty({ ...MONEY, description: "the receipt's amount in its own currency, a decimal string" })
  amount!: string;
  @ApiProperty({ example: 'Rema 1000' }) merchant!: string;
  @ApiProperty({ format: 'date', description: "the receipt's (accounting) date" }) date!: string;
  @ApiProperty({ nullable: true, type: String }) description!: string | null;
  @ApiProperty({ format: 'date-time', description: 'when it was booked (the Executed event)' })
  bookedAt!: string;
  @ApiProperty({ type: ReimbursementBookingDto }) booking!: ReimbursementBookingDto;
  @ApiProperty({ type: ReimbursementPaymentDto, nullable: true, description: 'set once marked paid back' })
  payment!: ReimbursementPaymentDto | null;
}

export class ReimbursementTotalDto {
  @ApiProperty({ format: 'email', description: "the employee's email, in lower case" }) employee!: string;
  @ApiProperty({ type: 'integer', description: 'how many outlays' }) count!: number;
  @ApiProperty({ ...MONEY, description: 'their NOK amounts added up, a decimal string' }) amountNok!: string;
}

export class ReimbursementPageDto {
  @ApiProperty({ enum: REIMBURSEMENT_STATUSES, description: 'the status listed' }) status!: ReimbursementStatus;
  @ApiProperty({ type: [ReimbursementDto], description: 'oldest submission first' }) items!: ReimbursementDto[];
  @ApiProperty({ nullable: true, type: String, description: 'pass as ?cursor= for the next page; null on the last' })
  nextCursor!: string | null;
  @ApiProperty({
    type: [ReimbursementTotalDto],
    description: 'per employee (sorted by email), over every outlay of the filter, not only this page',
  })
  totalsByEmployee!: ReimbursementTotalDto[];
}
