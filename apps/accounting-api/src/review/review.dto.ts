import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsObject, IsOptional, IsString, Length, Matches, ValidateNested } from 'class-validator';
import { MAX_REJECTION_REASON_LENGTH } from '@app/domain';
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
