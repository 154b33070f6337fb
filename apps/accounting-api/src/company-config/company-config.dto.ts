import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  IsIn,
  IsInt,
  IsObject,
  IsOptional,
  IsString,
  IsUrl,
  Matches,
  Max,
  MaxLength,
  Min,
  ValidateNested,
} from 'class-validator';
import {
  COMPANY_LOCALES,
  DEFAULT_EXECUTION_DELAY_MINUTES,
  DEFAULT_PAYMENT_ACCOUNT,
  MAX_EXECUTION_DELAY_MINUTES,
  type CompanyLocale,
} from '@app/domain';
import { DATE_PATTERN, MONEY_PATTERN } from '../proposals/proposal.dto';

export class WebhookTargetDto {
  @ApiProperty({
    enum: ['slack', 'webhook'],
    description: 'a Slack incoming webhook, or a JSON webhook signed with HMAC-SHA256',
  })
  @IsIn(['slack', 'webhook'])
  kind!: 'slack' | 'webhook';

  @ApiProperty({
    example: 'https://gateway.example.com/hooks/accounting',
    description: 'in production: https, and not a loopback, private or internal host',
  })
  @IsString()
  @MaxLength(2048)
  @IsUrl(
    { protocols: ['http', 'https'], require_protocol: true, require_tld: false, allow_underscores: true },
    { message: 'url must be an http(s) URL' },
  )
  url!: string;
}

const AUTO_APPROVE_LIMIT_DESCRIPTION =
  'the largest amount in NOK that may be auto-approved (default "10000.00"); above it a proposal goes to review whatever its score. ' +
  'A foreign amount is compared by its amount in NOK, and without one is never auto-approved while a limit is set. ' +
  '"0" turns auto-approval off; null sets no limit';

const OPEN_PERIOD_DESCRIPTION =
  "the first day of the company's open period, YYYY-MM-DD: a proposal dated before it is never auto-approved, " +
  'and its reasons say why. null (the default): January 1 of the previous calendar year';

/** A payment account: an account number, or a sub-ledger of one (Fiken: `1920:10001`). */
const PAYMENT_ACCOUNT_PATTERN = /^\d{4,6}(:\d{1,12})?$/;
const PAYMENT_ACCOUNT_MESSAGE =
  'must be an account number of 4 to 6 digits such as "1920", or a sub-ledger such as "1920:10001"';

/** The credit account of an expense by how it was paid (`paidWith`). */
export class PaymentAccountsDto {
  @ApiProperty({ example: '1920', description: 'paid from the bank account (the same as paymentAccount)' })
  @IsOptional()
  @IsString()
  @Matches(PAYMENT_ACCOUNT_PATTERN, { message: `paymentAccounts.bank ${PAYMENT_ACCOUNT_MESSAGE}` })
  bank!: string;

  @ApiProperty({
    type: String,
    nullable: true,
    example: '1930',
    description: "paid with the company card: the card's account; null (the default) until set, and then refused",
  })
  @IsOptional()
  @IsString()
  @Matches(PAYMENT_ACCOUNT_PATTERN, { message: `paymentAccounts.company_card ${PAYMENT_ACCOUNT_MESSAGE}` })
  company_card!: string | null;

  @ApiProperty({ example: '2910', description: 'paid by an employee: what the company owes them (default 2910)' })
  @IsOptional()
  @IsString()
  @Matches(PAYMENT_ACCOUNT_PATTERN, { message: `paymentAccounts.employee ${PAYMENT_ACCOUNT_MESSAGE}` })
  employee!: string;
}

/** The company settings (docs/api.md §5). */
export class CompanySettingsDto {
  @ApiProperty({
    type: WebhookTargetDto,
    nullable: true,
    description: 'where proposals needing review and execution failures go',
  })
  reviewChannel!: WebhookTargetDto | null;
  @ApiProperty({ type: WebhookTargetDto, nullable: true, description: 'where the daily check results go' })
  invoicesChannel!: WebhookTargetDto | null;
  @ApiProperty({
    type: WebhookTargetDto,
    nullable: true,
    description: "the agent gateway: auto-approvals and rejections reach the user's thread through it",
  })
  gatewayCallback!: WebhookTargetDto | null;
  @ApiProperty({
    type: 'integer',
    example: DEFAULT_EXECUTION_DELAY_MINUTES,
    description: 'minutes an auto-approved proposal waits before execution',
  })
  executionDelayMinutes!: number;
  @ApiProperty({
    example: DEFAULT_PAYMENT_ACCOUNT,
    description: 'the credit side of an expense paid from the bank: paymentAccounts.bank',
  })
  paymentAccount!: string;
  @ApiProperty({ type: PaymentAccountsDto, description: 'the credit side of an expense by how it was paid' })
  paymentAccounts!: PaymentAccountsDto;
  @ApiProperty({ type: String, nullable: true, example: '10000.00', description: AUTO_APPROVE_LIMIT_DESCRIPTION })
  autoApproveMaxAmount!: string | null;
  @ApiProperty({ enum: COMPANY_LOCALES, example: 'nb-NO', description: 'number and date formats of the web console' })
  locale!: CompanyLocale;
  @ApiProperty({ type: String, nullable: true, format: 'date', example: null, description: OPEN_PERIOD_DESCRIPTION })
  openPeriodStart!: string | null;
}

/** PUT /config/company: the settings to change; absent keys keep their value, null clears a channel. */
export class UpdateCompanySettingsDto {
  @ApiPropertyOptional({ type: WebhookTargetDto, nullable: true })
  @IsOptional()
  @IsObject()
  @ValidateNested()
  @Type(() => WebhookTargetDto)
  reviewChannel?: WebhookTargetDto | null;

  @ApiPropertyOptional({ type: WebhookTargetDto, nullable: true })
  @IsOptional()
  @IsObject()
  @ValidateNested()
  @Type(() => WebhookTargetDto)
  invoicesChannel?: WebhookTargetDto | null;

  @ApiPropertyOptional({ type: WebhookTargetDto, nullable: true })
  @IsOptional()
  @IsObject()
  @ValidateNested()
  @Type(() => WebhookTargetDto)
  gatewayCallback?: WebhookTargetDto | null;

  @ApiPropertyOptional({ type: 'integer', minimum: 0, maximum: MAX_EXECUTION_DELAY_MINUTES, example: 15 })
  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(MAX_EXECUTION_DELAY_MINUTES)
  executionDelayMinutes?: number;

  @ApiPropertyOptional({ example: '1920', description: 'paymentAccounts.bank' })
  @IsOptional()
  @IsString()
  @Matches(PAYMENT_ACCOUNT_PATTERN, { message: `paymentAccount ${PAYMENT_ACCOUNT_MESSAGE}` })
  paymentAccount?: string;

  @ApiPropertyOptional({
    type: PaymentAccountsDto,
    description:
      'any of bank, company_card (null: not set), employee; each must be in the chart (a plain number with exactly one sub-ledger there is stored as that sub-ledger)',
  })
  @IsOptional()
  @IsObject()
  @ValidateNested()
  @Type(() => PaymentAccountsDto)
  paymentAccounts?: PaymentAccountsDto;

  @ApiPropertyOptional({
    type: String,
    nullable: true,
    example: '10000.00',
    description: AUTO_APPROVE_LIMIT_DESCRIPTION,
  })
  @IsOptional()
  @IsString()
  @Matches(MONEY_PATTERN, {
    message:
      'autoApproveMaxAmount must be an amount in NOK as a decimal string, such as "10000.00", or null for no limit',
  })
  autoApproveMaxAmount?: string | null;

  @ApiPropertyOptional({ enum: COMPANY_LOCALES, example: 'en-GB' })
  @IsOptional()
  @IsIn(COMPANY_LOCALES, { message: `locale must be one of ${COMPANY_LOCALES.join(', ')}` })
  locale?: CompanyLocale;

  @ApiPropertyOptional({
    type: String,
    nullable: true,
    format: 'date',
    example: '2026-01-01',
    description: OPEN_PERIOD_DESCRIPTION,
  })
  @IsOptional()
  @Matches(DATE_PATTERN, { message: 'openPeriodStart must be a date in the form YYYY-MM-DD, or null for the default' })
  openPeriodStart?: string | null;
}
