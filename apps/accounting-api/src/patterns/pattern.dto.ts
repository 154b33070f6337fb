import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsBoolean,
  IsIn,
  IsOptional,
  IsString,
  Length,
  Matches,
} from 'class-validator';
import { MAX_MERCHANT_LENGTH, VAT_TREATMENTS } from '@app/domain';
import { PageQueryDto } from '../events/event.dto';
import { ACCOUNT_CODE_PATTERN, VAT_RATE_PATTERN } from '../proposals/proposal.dto';

export class PatternAmountsDto {
  @ApiProperty({
    type: 'integer',
    example: 14,
    description: "amounts observed: reviewers' approvals and executed (never rejected) auto-approvals",
  })
  count!: number;
  @ApiProperty({ example: '119.00', nullable: true, type: String }) mean!: string | null;
  @ApiProperty({ example: '99.00', nullable: true, type: String }) min!: string | null;
  @ApiProperty({ example: '119.00', nullable: true, type: String }) max!: string | null;
}

export class PatternHistoryDto {
  @ApiProperty({ type: 'integer', example: 11, description: 'bookings to this account and VAT rate' })
  bookings!: number;
  @ApiProperty({ type: 'integer', example: 12, description: "all the merchant's bookings read" })
  merchantBookings!: number;
  @ApiProperty({ example: '2025-12-03' }) firstDate!: string;
  @ApiProperty({ example: '2026-11-02' }) lastDate!: string;
}

/**
 * A merchant pattern: merchant → (account code, VAT rate, VAT treatment, supplier), learnt from
 * approvals or written by an accountant.
 */
export class PatternDto {
  @ApiProperty() id!: string;
  @ApiProperty({ example: 'Spotify AB', description: 'as last seen' }) merchantName!: string;
  @ApiProperty({ example: 'spotify', description: 'the normalised lookup key' }) merchantKey!: string;
  @ApiProperty({ example: '6540' }) accountCode!: string;
  @ApiProperty({ example: '25' }) vatRate!: string;
  @ApiProperty({
    enum: VAT_TREATMENTS,
    nullable: true,
    type: String,
    example: 'domestic',
    description:
      "the VAT treatment the merchant's approvals showed (the latest one); null: not known yet, read as domestic when scoring",
  })
  vatTreatment!: string | null;
  @ApiProperty({
    nullable: true,
    type: String,
    example: '923609016',
    description:
      "the supplier's organisation number the merchant's approved supplier invoices showed (the latest one); null: not known yet",
  })
  supplierOrganizationNumber!: string | null;
  @ApiProperty({ type: 'integer', example: 14, description: 'review approvals that confirmed it' }) approvals!: number;
  @ApiProperty({ description: 'confirmed by a person; only verified patterns auto-approve' }) verified!: boolean;
  @ApiProperty({
    nullable: true,
    type: String,
    example: 'kari@example.no',
    description:
      'the accountant who wrote it through POST /patterns; null when learnt from an approval. Their own proposals never auto-approve from it (separation of duties)',
  })
  writtenBy!: string | null;
  @ApiProperty({
    nullable: true,
    type: String,
    description: 'the accountant who last changed it through PUT /patterns/{id}; the same holds for them',
  })
  lastChangedBy!: string | null;
  @ApiProperty({
    type: [String],
    example: ['per@example.no'],
    description:
      'who confirmed the rule as it stands (its writer or editor, reviewers whose approvals taught it), newest first, at most two; a proposal auto-approves only when someone other than its submitter is among them',
  })
  confirmedBy!: string[];
  @ApiProperty({ type: PatternAmountsDto }) amounts!: PatternAmountsDto;
  @ApiProperty({
    type: () => PatternHistoryDto,
    nullable: true,
    description: 'set on a pattern the history import suggested: how the merchant was booked in the books read',
  })
  history!: PatternHistoryDto | null;
  @ApiProperty({ type: 'integer', example: 3, description: "the sequence of the pattern's last event" })
  version!: number;
  @ApiProperty({ example: '2026-11-20T10:00:00.000Z' }) createdAt!: string;
  @ApiProperty({ example: '2026-11-20T10:00:00.000Z' }) updatedAt!: string;
  @ApiProperty({
    nullable: true,
    type: String,
    description: 'set when retired: kept for the audit trail, ignored by scoring',
  })
  retiredAt!: string | null;
}

export class PatternPageDto {
  @ApiProperty({ type: [PatternDto] }) items!: PatternDto[];
  @ApiProperty({ nullable: true, type: String }) nextCursor!: string | null;
}

export class ListPatternsQueryDto extends PageQueryDto {
  @ApiPropertyOptional({
    example: 'Spotify',
    description: "only this merchant's patterns (compared by normalised name)",
  })
  @IsOptional()
  @IsString()
  @Length(1, MAX_MERCHANT_LENGTH)
  merchant?: string;

  @ApiPropertyOptional({ enum: ['true', 'false'], default: 'false', description: 'include retired patterns' })
  @IsOptional()
  @IsIn(['true', 'false'])
  includeRetired?: 'true' | 'false';
}

/** POST /patterns. */
export class CreatePatternDto {
  @ApiProperty({ example: 'Spotify AB', maxLength: MAX_MERCHANT_LENGTH })
  @IsString()
  @Length(1, MAX_MERCHANT_LENGTH)
  merchantName!: string;

  @ApiProperty({ example: '6540' })
  @IsString()
  @Matches(ACCOUNT_CODE_PATTERN, { message: 'accountCode must be an account number of 4 to 6 digits, such as "6540"' })
  accountCode!: string;

  @ApiProperty({ example: '25' })
  @IsString()
  @Matches(VAT_RATE_PATTERN, {
    message: 'vatRate must be a percentage as a decimal string with at most 2 decimals, such as "25"',
  })
  vatRate!: string;

  @ApiPropertyOptional({
    enum: VAT_TREATMENTS,
    nullable: true,
    description:
      "the merchant's VAT treatment; left out or null: not known (a domestic proposal still auto-approves, another treatment waits for an approval that shows it)",
  })
  @IsOptional()
  @IsIn(VAT_TREATMENTS, { message: `vatTreatment must be one of ${VAT_TREATMENTS.join(', ')}, or null (not known)` })
  vatTreatment?: string | null;

  @ApiPropertyOptional({
    type: String,
    nullable: true,
    example: '923609016',
    description:
      "the organisation number of the merchant's supplier invoices (9 digits, mod-11); left out or null: not known (a supplier invoice waits for an approval that shows it)",
  })
  @IsOptional()
  @IsString()
  supplierOrganizationNumber?: string | null;

  @ApiPropertyOptional({
    default: true,
    description: 'an accountant writing a rule vouches for it unless told otherwise',
  })
  @IsOptional()
  @IsBoolean()
  verified?: boolean;
}

/** PUT /patterns/{id}: the fields to change, at least one; approvals and amounts are kept. */
export class EditPatternDto {
  @ApiPropertyOptional({ example: 'Spotify AB', maxLength: MAX_MERCHANT_LENGTH })
  @IsOptional()
  @IsString()
  @Length(1, MAX_MERCHANT_LENGTH)
  merchantName?: string;

  @ApiPropertyOptional({ example: '6540' })
  @IsOptional()
  @IsString()
  @Matches(ACCOUNT_CODE_PATTERN, { message: 'accountCode must be an account number of 4 to 6 digits, such as "6540"' })
  accountCode?: string;

  @ApiPropertyOptional({ example: '25' })
  @IsOptional()
  @IsString()
  @Matches(VAT_RATE_PATTERN, {
    message: 'vatRate must be a percentage as a decimal string with at most 2 decimals, such as "25"',
  })
  vatRate?: string;

  @ApiPropertyOptional({
    enum: VAT_TREATMENTS,
    nullable: true,
    description: "the merchant's VAT treatment; null: not known",
  })
  @IsOptional()
  @IsIn(VAT_TREATMENTS, { message: `vatTreatment must be one of ${VAT_TREATMENTS.join(', ')}, or null (not known)` })
  vatTreatment?: string | null;

  @ApiPropertyOptional({
    type: String,
    nullable: true,
    example: '923609016',
    description: "the organisation number of the merchant's supplier invoices (9 digits, mod-11); null: not known",
  })
  @IsOptional()
  @IsString()
  supplierOrganizationNumber?: string | null;

  @ApiPropertyOptional()
  @IsOptional()
  @IsBoolean()
  verified?: boolean;
}

export class HistoryImportDto {
  @ApiProperty({ example: 'tripletex' }) provider!: string;
  @ApiProperty({ example: '2025-11-20' }) periodFrom!: string;
  @ApiProperty({ example: '2026-11-20' }) periodTo!: string;
  @ApiProperty({ enum: ['running', 'done', 'failed'] }) status!: string;
  @ApiProperty({ type: 'integer', example: 143 }) bookingsRead!: number;
  @ApiProperty({ type: 'integer', example: 8 }) pagesRead!: number;
  @ApiProperty({ example: 'kari@example.no' }) startedBy!: string;
  @ApiProperty() startedAt!: string;
  @ApiProperty() updatedAt!: string;
  @ApiProperty({ nullable: true, type: String }) finishedAt!: string | null;
  @ApiProperty({ nullable: true, type: String, description: 'why the last run stopped, when it failed' })
  error!: string | null;
}

export class SuggestionPageDto {
  @ApiProperty({ type: [PatternDto], description: 'suggestions no one has confirmed yet, oldest first' })
  items!: PatternDto[];
  @ApiProperty({ nullable: true, type: String }) nextCursor!: string | null;
  @ApiProperty({ type: HistoryImportDto, nullable: true, description: "the company's last history import" })
  import!: HistoryImportDto | null;
}

export class ConfirmSuggestionsDto {
  @ApiProperty({ type: [String], description: 'the ids of the suggestions to confirm (1 to 200): all or none are' })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(200)
  @IsString({ each: true })
  @Length(1, 64, { each: true })
  ids!: string[];
}

export class ConfirmedSuggestionsDto {
  @ApiProperty({ type: [PatternDto] }) items!: PatternDto[];
}

export class RefreshSuggestionsDto {
  @ApiProperty({ type: HistoryImportDto }) import!: HistoryImportDto;
  @ApiProperty({ type: 'integer', example: 9, description: 'suggestions made or refreshed by this run' })
  suggested!: number;
}
