import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsIn, IsInt, IsOptional, IsRFC3339, IsString, Length, Max, Min, MaxLength } from 'class-validator';
import {
  CHANNELS,
  DEFAULT_PAGE_LIMIT,
  describeEventData,
  EVENT_TYPES,
  MAX_PAGE_LIMIT,
  PROPOSAL_STATUSES,
  type EventType,
  type ProposalStatus,
} from '@app/domain';

export class ApiCallDto {
  @ApiProperty({ example: 'POST' }) method!: string;
  @ApiProperty({ example: '/ledger/voucher' }) path!: string;
  @ApiProperty({ type: 'integer', example: 201, description: 'HTTP status; 0 when no response arrived' })
  status!: number;
}

/**
 * One immutable event (docs/api.md §4.3). The identity chain keeps the spec's names (`actor`,
 * `company`, `channel`, `provider`, `api_calls`); everything else is camelCase.
 */
export class EventDto {
  @ApiProperty({ format: 'uuid', example: '0193a1b2-7c3d-7e4f-8a5b-6c7d8e9f0a1b' }) id!: string;
  @ApiProperty({ enum: EVENT_TYPES }) type!: string;
  @ApiProperty({
    enum: PROPOSAL_STATUSES,
    nullable: true,
    description: 'the proposal status the event leads to; null for pattern events',
  })
  status!: string | null;
  @ApiProperty({
    type: String,
    format: 'uuid',
    nullable: true,
    description:
      'the proposal; for PatternSaved the approved proposal that taught it or the executed auto-approval it observed, else null',
  })
  proposalId!: string | null;
  @ApiProperty({ description: "the chain: a proposal's (resubmissions join it) or a pattern's id" })
  correlationId!: string;
  @ApiProperty({ type: 'integer', minimum: 1, example: 1, description: 'position in the chain, from 1, without gaps' })
  sequence!: number;
  @ApiProperty({ format: 'date-time', example: '2026-11-20T10:00:00.000Z' }) occurredAt!: string;
  @ApiProperty({ example: 'ola@example.no', description: "the token's sub" }) actor!: string;
  @ApiProperty({ example: 'acme' }) company!: string;
  @ApiProperty({ enum: CHANNELS }) channel!: string;
  @ApiProperty({
    type: String,
    example: 'tripletex',
    nullable: true,
    description: "the company's provider; null when none is connected or none is involved",
  })
  provider!: string | null;
  @ApiProperty({ type: [ApiCallDto], description: 'calls made to the provider' }) api_calls!: ApiCallDto[];
  @ApiProperty({
    type: Number,
    minimum: 0,
    maximum: 1,
    example: 0.96,
    nullable: true,
    description: "the proposal's score; null for pattern events",
  })
  confidence!: number | null;
  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    description: `${describeEventData()}. Money as decimal strings.`,
  })
  data!: Record<string, unknown>;
}

export class EventPageDto {
  @ApiProperty({ type: [EventDto] }) items!: EventDto[];
  @ApiProperty({ nullable: true, type: String, description: 'pass as ?cursor= for the next page; null on the last' })
  nextCursor!: string | null;
}

/** ?limit= and ?cursor= (docs/api.md §1). */
export class PageQueryDto {
  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: MAX_PAGE_LIMIT, default: DEFAULT_PAGE_LIMIT })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(MAX_PAGE_LIMIT)
  limit?: number;

  @ApiPropertyOptional({ description: 'the nextCursor of the previous page' })
  @IsOptional()
  @IsString()
  @MaxLength(1024)
  cursor?: string;
}

export class ListEventsQueryDto extends PageQueryDto {
  @ApiPropertyOptional({
    enum: PROPOSAL_STATUSES,
    description: 'events of the proposals currently in this status (PROPOSED: the pending ones)',
  })
  @IsOptional()
  @IsIn(PROPOSAL_STATUSES)
  status?: ProposalStatus;

  @ApiPropertyOptional({ description: "one chain's whole history, oldest first" })
  @IsOptional()
  @IsString()
  @Length(1, 255)
  correlationId?: string;

  @ApiPropertyOptional({ enum: EVENT_TYPES })
  @IsOptional()
  @IsIn(EVENT_TYPES)
  type?: EventType;

  @ApiPropertyOptional({ example: '2026-11-01T00:00:00Z', description: 'RFC 3339; events at or after it' })
  @IsOptional()
  @IsRFC3339()
  from?: string;

  @ApiPropertyOptional({ example: '2026-12-01T00:00:00Z', description: 'RFC 3339; events before it' })
  @IsOptional()
  @IsRFC3339()
  to?: string;
}
