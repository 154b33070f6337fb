import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsInt, IsOptional, IsString, Max, Min } from 'class-validator';
import { MAX_CHECK_ITEM_LIMIT, DEFAULT_CHECK_ITEM_LIMIT } from '@app/application';
import { PROVIDER_KINDS } from '@app/providers';

class CheckLimitQuery {
  @ApiPropertyOptional({
    type: 'integer',
    minimum: 0,
    maximum: MAX_CHECK_ITEM_LIMIT,
    default: DEFAULT_CHECK_ITEM_LIMIT,
    description:
      'at most this many items in the response; every provider page is still read and counted (`count`, `truncated`)',
  })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(0)
  @Max(MAX_CHECK_ITEM_LIMIT)
  limit?: number;
}

export class MissingReceiptsQueryDto extends CheckLimitQuery {
  @ApiPropertyOptional({
    example: '2026-10-21',
    description: 'first day (YYYY-MM-DD) of the postings read; default 30 days before today (UTC)',
  })
  @IsOptional()
  @IsString()
  from?: string;
}

export class OverdueInvoicesQueryDto extends CheckLimitQuery {
  @ApiPropertyOptional({
    example: '2026-11-20',
    description: 'the day (YYYY-MM-DD) invoices are overdue at; default today (UTC)',
  })
  @IsOptional()
  @IsString()
  asOf?: string;
}

/** One posting without a receipt, the same shape for Tripletex (a voucher) and Fiken (a journal entry). */
export class MissingReceiptDto {
  @ApiProperty({ example: '608213', description: "the provider's id of the voucher / journal entry" }) id!: string;
  @ApiProperty({ example: '412', description: "the provider's voucher / journal entry number" }) number!: string;
  @ApiProperty({ example: '2026-11-03' }) date!: string;
  @ApiProperty({ example: 'Taxi Oslo' }) description!: string;
  @ApiProperty({
    example: '349.00',
    nullable: true,
    type: String,
    description: 'debit side as a decimal string; null when the provider does not tell it',
  })
  amount!: string | null;
  @ApiProperty({ example: 'NOK' }) currency!: string;
}

export class MissingReceiptsDto {
  @ApiProperty({ enum: PROVIDER_KINDS }) provider!: string;
  @ApiProperty({ example: '2026-10-21' }) from!: string;
  @ApiProperty({ example: '2026-11-20' }) to!: string;
  @ApiProperty({
    type: 'integer',
    example: 37,
    description: 'postings without an attachment found in the whole window',
  })
  count!: number;
  @ApiProperty({ description: 'true when `items` holds fewer than `count` (raise `limit` or narrow `from`)' })
  truncated!: boolean;
  @ApiProperty({ type: [MissingReceiptDto] }) items!: MissingReceiptDto[];
}

/** One overdue customer invoice, the same shape for Tripletex and Fiken. */
export class OverdueInvoiceDto {
  @ApiProperty({ example: '10023' }) id!: string;
  @ApiProperty({ example: '1042' }) number!: string;
  @ApiProperty({ example: 'Fjord Fisk AS' }) customerName!: string;
  @ApiProperty({ example: '2026-10-01' }) issueDate!: string;
  @ApiProperty({ example: '2026-10-15' }) dueDate!: string;
  @ApiProperty({ type: 'integer', example: 36, description: 'whole days from the due date to `asOf`' })
  daysOverdue!: number;
  @ApiProperty({ example: '12500.00', description: 'gross amount invoiced' }) amount!: string;
  @ApiProperty({ example: '12500.00', description: 'amount still outstanding, > 0' }) outstanding!: string;
  @ApiProperty({ example: 'NOK' }) currency!: string;
}

export class MoneyTotalDto {
  @ApiProperty({ example: 'NOK' }) currency!: string;
  @ApiProperty({ example: '48250.00' }) amount!: string;
}

export class OverdueInvoicesDto {
  @ApiProperty({ enum: PROVIDER_KINDS }) provider!: string;
  @ApiProperty({ example: '2026-11-20' }) asOf!: string;
  @ApiProperty({ type: 'integer', example: 4, description: 'overdue invoices found' }) count!: number;
  @ApiProperty({ description: 'true when `items` holds fewer than `count`' }) truncated!: boolean;
  @ApiProperty({
    type: [MoneyTotalDto],
    description: 'outstanding amount of every overdue invoice found, per currency',
  })
  totalOutstanding!: MoneyTotalDto[];
  @ApiProperty({ type: [OverdueInvoiceDto] }) items!: OverdueInvoiceDto[];
}
