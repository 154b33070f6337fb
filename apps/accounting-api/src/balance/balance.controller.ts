import { Controller, Get, Param, Query } from '@nestjs/common';
import {
  ApiConflictResponse,
  ApiGatewayTimeoutResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiProperty,
  ApiPropertyOptional,
  ApiServiceUnavailableResponse,
  ApiTags,
  ApiBadGatewayResponse,
} from '@nestjs/swagger';
import { IsIn, IsOptional, IsString } from 'class-validator';
import { type Identity } from '@app/domain';
import { PROVIDER_KINDS } from '@app/providers';
import { ReadBalances } from '@app/application';
import { Access } from '../auth/access.decorator';
import { CurrentIdentity } from '../auth/current-identity.decorator';
import { ProblemDto } from '../http/problem.dto';
import { providerParam } from '../onboarding/provider-param';

class BalanceQuery {
  @ApiPropertyOptional({
    example: '2026-11-20',
    description: 'balances at the end of this day (default: today in Norway)',
  })
  @IsOptional()
  @IsString()
  date?: string;

  @ApiPropertyOptional({
    enum: ['true', 'false'],
    description: 'also list the accounts of the chart without a balance, at 0.00 (default false)',
  })
  @IsOptional()
  @IsIn(['true', 'false'])
  includeUnmoved?: string;
}

class AccountBalanceDto {
  @ApiProperty({ example: '1920' }) code!: string;
  @ApiProperty({ example: 'Bankinnskudd' }) name!: string;
  @ApiProperty({
    example: '125000.50',
    description:
      'decimal string, debit positive: a balance-sheet account (classes 1–2) its closing balance at the date, ' +
      'a result account (classes 3–8) its movement in the accounting year up to the date',
  })
  balance!: string;
}

class BalanceDto {
  @ApiProperty({ enum: PROVIDER_KINDS }) provider!: string;
  @ApiProperty({ example: '2026-11-20' }) date!: string;
  @ApiProperty({ type: [AccountBalanceDto] }) accounts!: AccountBalanceDto[];
}

/** The live balance query: read from the provider, no events, no review. Registered after every other /v1 route. */
@ApiTags('query')
@Controller('v1')
export class BalanceController {
  constructor(private readonly balances: ReadBalances) {}

  @Get(':provider/balance')
  @Access('query', 'employee')
  @ApiOperation({ summary: 'Accounts with balances, read live from the provider (tripletex or fiken)' })
  @ApiParam({ name: 'provider', enum: PROVIDER_KINDS })
  @ApiOkResponse({ type: BalanceDto })
  @ApiNotFoundResponse({ description: 'not_found: no such provider', type: ProblemDto })
  @ApiConflictResponse({
    description: 'provider_not_connected: no connection, or the company uses the other provider',
    type: ProblemDto,
  })
  @ApiBadGatewayResponse({ description: 'provider_error', type: ProblemDto })
  @ApiServiceUnavailableResponse({ description: 'provider_unavailable', type: ProblemDto })
  @ApiGatewayTimeoutResponse({ description: 'provider_timeout', type: ProblemDto })
  async balance(
    @CurrentIdentity() identity: Identity,
    @Param('provider') provider: string,
    @Query() query: BalanceQuery,
  ): Promise<BalanceDto> {
    return this.balances.execute(
      identity.company,
      providerParam(provider),
      query.date,
      query.includeUnmoved === 'true',
    );
  }
}
