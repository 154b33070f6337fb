import { Controller, Get, Query } from '@nestjs/common';
import {
  ApiBadGatewayResponse,
  ApiBadRequestResponse,
  ApiConflictResponse,
  ApiGatewayTimeoutResponse,
  ApiOkResponse,
  ApiOperation,
  ApiServiceUnavailableResponse,
  ApiTags,
} from '@nestjs/swagger';
import type { Identity } from '@app/domain';
import { ProviderChecks } from '@app/application';
import { Access } from '../auth/access.decorator';
import { CurrentIdentity } from '../auth/current-identity.decorator';
import { ProblemDto } from '../http/problem.dto';
import { MissingReceiptsDto, MissingReceiptsQueryDto, OverdueInvoicesDto, OverdueInvoicesQueryDto } from './checks.dto';

/**
 * The checks (docs/api.md §4): read live from the company's provider, every page, no events and
 * no review. Items are capped by `limit` (bounded memory whatever the ledger's size); `count` and
 * `truncated` tell what was left out.
 */
@ApiTags('monitor')
@Controller('v1/check')
@ApiBadRequestResponse({ description: 'validation_failed', type: ProblemDto })
@ApiConflictResponse({ description: 'provider_not_connected', type: ProblemDto })
@ApiBadGatewayResponse({ description: 'provider_error', type: ProblemDto })
@ApiServiceUnavailableResponse({ description: 'provider_unavailable', type: ProblemDto })
@ApiGatewayTimeoutResponse({ description: 'provider_timeout', type: ProblemDto })
export class ChecksController {
  constructor(private readonly checks: ProviderChecks) {}

  @Get('missing-receipts')
  @Access('monitor', 'manager')
  @ApiOperation({ summary: 'Vouchers (Tripletex) or journal entries (Fiken) since `from` without an attachment' })
  @ApiOkResponse({ type: MissingReceiptsDto })
  missingReceipts(
    @CurrentIdentity() identity: Identity,
    @Query() query: MissingReceiptsQueryDto,
  ): Promise<MissingReceiptsDto> {
    return this.checks.missingReceipts(identity.company, { from: query.from, limit: query.limit });
  }

  @Get('overdue-invoices')
  @Access('monitor', 'manager')
  @ApiOperation({ summary: 'Customer invoices past their due date with an amount outstanding, with days overdue' })
  @ApiOkResponse({ type: OverdueInvoicesDto })
  overdueInvoices(
    @CurrentIdentity() identity: Identity,
    @Query() query: OverdueInvoicesQueryDto,
  ): Promise<OverdueInvoicesDto> {
    return this.checks.overdueInvoices(identity.company, { asOf: query.asOf, limit: query.limit });
  }
}
