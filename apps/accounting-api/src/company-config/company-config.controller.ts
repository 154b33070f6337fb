import { Body, Controller, Get, Put } from '@nestjs/common';
import { ApiBadRequestResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { GetCompanySettingsHandler, UpdateCompanySettingsHandler } from '@app/application';
import { formatMoney, type CompanySettings, type Identity } from '@app/domain';
import { Access } from '../auth/access.decorator';
import { CurrentIdentity } from '../auth/current-identity.decorator';
import { ProblemDto } from '../http/problem.dto';
import { CompanySettingsDto, UpdateCompanySettingsDto } from './company-config.dto';

function settingsJson(settings: CompanySettings): CompanySettingsDto {
  const target = (value: CompanySettings['reviewChannel']) => (value ? { kind: value.kind, url: value.url } : null);
  return {
    reviewChannel: target(settings.reviewChannel),
    invoicesChannel: target(settings.invoicesChannel),
    gatewayCallback: target(settings.gatewayCallback),
    executionDelayMinutes: settings.executionDelayMinutes,
    paymentAccount: settings.paymentAccounts.bank,
    paymentAccounts: { ...settings.paymentAccounts },
    autoApproveMaxAmount: settings.autoApproveMaxAmount === null ? null : formatMoney(settings.autoApproveMaxAmount),
    locale: settings.locale,
    openPeriodStart: settings.openPeriodStart,
  };
}

@ApiTags('config')
@Controller('v1/config/company')
export class CompanyConfigController {
  constructor(
    private readonly getSettings: GetCompanySettingsHandler,
    private readonly updateSettings: UpdateCompanySettingsHandler,
  ) {}

  @Get()
  @Access('config', 'admin')
  @ApiOperation({
    summary: "The company's settings: channels, execution delay, payment account, auto-approval limit",
  })
  @ApiOkResponse({ type: CompanySettingsDto })
  async get(@CurrentIdentity() identity: Identity): Promise<CompanySettingsDto> {
    return settingsJson(await this.getSettings.execute(identity));
  }

  @Put()
  @Access('config', 'admin')
  @ApiOperation({
    summary: "Change the company's settings",
    description:
      'Only the keys sent change; a null channel is cleared. Every invalid key is reported at once. Answers the settings now in force.',
  })
  @ApiOkResponse({ type: CompanySettingsDto })
  @ApiBadRequestResponse({ type: ProblemDto })
  async put(
    @CurrentIdentity() identity: Identity,
    @Body() body: UpdateCompanySettingsDto,
  ): Promise<CompanySettingsDto> {
    return settingsJson(await this.updateSettings.execute({ caller: identity, changes: { ...body } }));
  }
}
