import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsArray, IsIn, IsObject, IsOptional, IsString, Length, Matches, ValidateNested } from 'class-validator';
import { MAX_REJECTION_REASON_LENGTH, PAID_WITH, VAT_TREATMENTS } from '@app/domain';
import { ACCOUNT_CODE_PATTERN, VAT_RATE_PATTERN } from '../proposals/proposal.dto';

export class CorrectionsInputDto {
  @ApiPropertyOptional({ example: '6540', description: "an account of the company's chart, 4 to 6 digits" })
  @IsOptional()
  @IsString()
  @Matches(ACCOUNT_CODE_PATTERN, { message: 'accountCode must be an account number of 4 to 6 digits, such as "6540"' })
  accountCode?: string;

  @ApiPropertyOptional({ example: '25', description: 'VAT percentage as a decimal string' })
  @IsOptional()
  @IsString()
  @Matches(VAT_RATE_PATTERN, {
    message: 'vatRate must be a percentage as a decimal string with at most 2 decimals, such as "25"',
  })
  vatRate?: string;

  @ApiPropertyOptional({ enum: VAT_TREATMENTS, description: 'how the VAT is treated' })
  @IsOptional()
  @IsIn(VAT_TREATMENTS, { message: `vatTreatment must be one of ${VAT_TREATMENTS.join(', ')}` })
  vatTreatment?: string;

  @ApiPropertyOptional({ enum: PAID_WITH, description: 'how an expense was paid (not for a supplier invoice)' })
  @IsOptional()
  @IsIn(PAID_WITH, { message: `paidWith must be one of ${PAID_WITH.join(', ')}` })
  paidWith?: string;

  @ApiPropertyOptional({
    type: 'array',
    items: { type: 'object' },
    description:
      'replaces the lines: 1 to 20 of { accountCode, vatRate, amount (decimal string), description? } adding up to the amount',
  })
  @IsOptional()
  @IsArray()
  lines?: unknown[];

  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: true,
    description: "a supplier invoice's supplier: { name, organizationNumber, bankAccount?, kid? }",
  })
  @IsOptional()
  @IsObject()
  supplier?: Record<string, unknown>;

  @ApiPropertyOptional({ format: 'date', description: "a supplier invoice's due date, on or after its date" })
  @IsOptional()
  @IsString()
  dueDate?: string;

  @ApiPropertyOptional({
    type: String,
    nullable: true,
    description: "the provider's department to post on (GET /context departments); null: none",
  })
  @IsOptional()
  @IsString()
  departmentId?: string | null;
}

/** POST /review/{id}/approve (docs/api.md §4.2): the body may be empty. */
export class ApproveProposalDto {
  @ApiPropertyOptional({
    type: CorrectionsInputDto,
    nullable: true,
    description: 'what the reviewer changes; the pattern learns the corrected values',
  })
  @IsOptional()
  @IsObject()
  @ValidateNested()
  @Type(() => CorrectionsInputDto)
  corrections?: CorrectionsInputDto | null;
}

/** POST /review/{id}/reject (docs/api.md §4.2). */
export class RejectProposalDto {
  @ApiProperty({
    example: 'wrong amount',
    minLength: 1,
    maxLength: MAX_REJECTION_REASON_LENGTH,
    description: 'told to the user',
  })
  @IsString()
  @Length(1, MAX_REJECTION_REASON_LENGTH)
  reason!: string;
}
