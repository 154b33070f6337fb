import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsEmail, IsIn, IsOptional, Matches, MaxLength } from 'class-validator';
import { PROPOSAL_STATUSES, type ProposalStatus } from '@app/domain';
import { PageQueryDto } from '../events/event.dto';
import { DATE_PATTERN, ProposalDto } from './proposal.dto';

/** GET /proposals's query: filters that all apply, and the page (docs/api.md §4.2). */
export class ListProposalsQueryDto extends PageQueryDto {
  @ApiPropertyOptional({ enum: PROPOSAL_STATUSES, description: 'proposals currently in this status' })
  @IsOptional()
  @IsIn(PROPOSAL_STATUSES, { message: `status must be one of ${PROPOSAL_STATUSES.join(', ')}` })
  status?: ProposalStatus;

  @ApiPropertyOptional({
    format: 'email',
    maxLength: 320,
    example: 'ola@demo.no',
    description: "the submitter's email, any letter case; an employee may name only themself (and sees only their own)",
  })
  @IsOptional()
  @MaxLength(320, { message: 'submittedBy must be an email address' })
  @IsEmail({}, { message: 'submittedBy must be an email address' })
  submittedBy?: string;

  @ApiPropertyOptional({
    format: 'date',
    example: '2026-11-01',
    description: 'accounting dates from this one (inclusive)',
  })
  @IsOptional()
  @Matches(DATE_PATTERN, { message: 'dateFrom must be a date in the form YYYY-MM-DD' })
  dateFrom?: string;

  @ApiPropertyOptional({
    format: 'date',
    example: '2026-11-30',
    description: 'accounting dates up to this one (inclusive)',
  })
  @IsOptional()
  @Matches(DATE_PATTERN, { message: 'dateTo must be a date in the form YYYY-MM-DD' })
  dateTo?: string;
}

export class ProposalPageDto {
  @ApiProperty({ type: [ProposalDto], description: 'oldest submission first' }) items!: ProposalDto[];
  @ApiProperty({ nullable: true, type: String, description: 'pass as ?cursor= for the next page; null on the last' })
  nextCursor!: string | null;
}
