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
import { DEFAULT_EXECUTION_DELAY_MINUTES, DEFAULT_PAYMENT_ACCOUNT, MAX_EXECUTION_DELAY_MINUTES } from '@app/domain';
import { ACCOUNT_CODE_PATTERN } from '../proposals/proposal.dto';

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

/** The company settings (api-contract §5). */
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
    example: DEFAULT_EXECUTION_DELAY_MINUTES,
    description: 'minutes an auto-approved proposal waits before execution',
  })
  executionDelayMinutes!: number;
  @ApiProperty({ example: DEFAULT_PAYMENT_ACCOUNT, description: 'the credit side of a booked expense' })
  paymentAccount!: string;
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

  @ApiPropertyOptional({ minimum: 0, maximum: MAX_EXECUTION_DELAY_MINUTES, example: 15 })
  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(MAX_EXECUTION_DELAY_MINUTES)
  executionDelayMinutes?: number;

  @ApiPropertyOptional({ example: '1920' })
  @IsOptional()
  @IsString()
  @Matches(ACCOUNT_CODE_PATTERN, {
    message: 'paymentAccount must be an account number of 4 to 6 digits, such as "1920"',
  })
  paymentAccount?: string;
}
