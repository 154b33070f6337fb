import { Body, Controller, Get, Param, Post, Query, Req, Res, UseFilters } from '@nestjs/common';
import type { Response } from 'express';
import {
  CompanyContextService,
  ConnectionOverview,
  EmployeeDirectory,
  GetCompanySettingsHandler,
  StartConnection,
  UpdateCompanySettingsHandler,
} from '@app/application';
import { invalidField, ValidationFailed, type CompanySettingsInput } from '@app/domain';
import { PROVIDER_KINDS } from '@app/providers';
import { ConsolePage } from '../auth/access.decorator';
import { providerParam } from '../onboarding/provider-param';
import { renderCompanyPage } from './company.view';
import { ConsoleCookies } from './console-cookies';
import { ConsoleExceptionFilter } from './console-exception.filter';
import {
  EMPTY_EMPLOYEE_FORM,
  employeeBody,
  employeeFormOf,
  employeeFormValues,
  type EmployeeFormState,
} from './console-employees';
import { sendConsole, type ConsoleViewer } from './console-page';
import type { ConsoleRequest } from './console-session.guard';
import { ConsoleViewers } from './console-viewers';

type Form = Record<string, unknown>;

/** How many employee mappings the page lists (the API pages through the rest). */
const SHOWN_EMPLOYEES = 200;

const NOTICES: Record<string, string> = {
  settings: 'Settings saved.',
  context: 'The chart was fetched again from the provider.',
  'employee-saved': 'The employee mapping was saved.',
  'employee-removed': 'The employee mapping was removed.',
};

function field(form: Form, name: string): string {
  const value = form[name];
  return typeof value === 'string' ? value.trim() : '';
}

/**
 * The company page (admins): the provider connection with connect / reconnect — the OAuth state
 * bound to this browser by a short-lived cookie — the chart refresh, the notification channels,
 * the execution delay, the auto-approval limit, the open period, the payment account, the console locale, and the
 * employee mapping (add, change, remove). Every change goes through the use cases the API's
 * /v1/config routes call, under the same permission (`config`) and role (admin).
 */
@Controller('console/company')
@UseFilters(ConsoleExceptionFilter)
export class CompanyConsoleController {
  constructor(
    private readonly viewers: ConsoleViewers,
    private readonly overview: ConnectionOverview,
    private readonly start: StartConnection,
    private readonly context: CompanyContextService,
    private readonly getSettings: GetCompanySettingsHandler,
    private readonly updateSettings: UpdateCompanySettingsHandler,
    private readonly employees: EmployeeDirectory,
    private readonly cookies: ConsoleCookies,
  ) {}

  @Get()
  @ConsolePage('config', 'admin')
  async page(
    @Req() request: ConsoleRequest,
    @Query('done') done: unknown,
    @Query('employee') employee: unknown,
    @Query('connect') connect: unknown,
    @Res() response: Response,
  ): Promise<void> {
    const viewer = await this.viewers.of(request);
    const form =
      typeof employee === 'string'
        ? employeeFormOf(await this.employees.get(viewer.identity.company, employee))
        : EMPTY_EMPLOYEE_FORM;
    const notice = typeof done === 'string' ? NOTICES[done] : undefined;
    const prompt = typeof connect === 'string' && PROVIDER_KINDS.includes(connect) ? connect : undefined;
    await this.render(viewer, response, 200, form, notice, prompt);
  }

  /**
   * The page, with the employee form as given (prefilled, or sent back with its errors); with
   * `prompt`, the connection section asks to press that provider's Connect button (where the API's
   * connect link leads). Nothing starts without that press.
   */
  private async render(
    viewer: ConsoleViewer,
    response: Response,
    status: number,
    form: EmployeeFormState,
    notice?: string,
    prompt?: string,
  ): Promise<void> {
    const company = viewer.identity.company;
    const [view, settings, employees, context] = await Promise.all([
      this.overview.execute(company),
      this.getSettings.execute(viewer.identity),
      this.employees.list(company, SHOWN_EMPLOYEES),
      this.context.cached(company),
    ]);
    sendConsole(
      response,
      status,
      renderCompanyPage({
        viewer,
        overview: view,
        settings,
        employees,
        shownEmployees: SHOWN_EMPLOYEES,
        context,
        form,
        notice,
        prompt,
      }),
      { formTargets: this.consentOrigins() },
    );
  }
  @Post('connect/:provider')
  @ConsolePage('config', 'admin')
  async connectProvider(
    @Req() request: ConsoleRequest,
    @Param('provider') provider: string,
    @Res() response: Response,
  ): Promise<void> {
    const started = await this.start.execute(request.identity!, providerParam(provider));
    this.cookies.setOAuthBinding(response, started.browserSecret, started.expiresAt);
    response.set('Referrer-Policy', 'no-referrer').redirect(303, started.authorizeUrl);
  }

  @Post('context/refresh')
  @ConsolePage('config', 'admin')
  async refresh(@Req() request: ConsoleRequest, @Res() response: Response): Promise<void> {
    await this.context.refresh(request.identity!.company);
    response.redirect(303, '/console/company?done=context');
  }

  @Post('settings')
  @ConsolePage('config', 'admin')
  async settings(@Req() request: ConsoleRequest, @Body() form: Form, @Res() response: Response): Promise<void> {
    await this.updateSettings.execute({ caller: request.identity!, changes: settingsChanges(form) });
    response.redirect(303, '/console/company?done=settings');
  }

  /**
   * Adds or replaces a mapping through EmployeeDirectory, as PUT /v1/config/employees/{userId}
   * does. A validation failure sends the page back (400) with the form as typed and the reasons.
   */
  @Post('employees')
  @ConsolePage('config', 'admin')
  async saveEmployee(@Req() request: ConsoleRequest, @Body() form: Form, @Res() response: Response): Promise<void> {
    const values = employeeFormValues(form);
    try {
      await this.employees.put(request.identity!.company, values.userId, employeeBody(values));
    } catch (error) {
      if (!(error instanceof ValidationFailed)) throw error;
      const errors = error.fieldErrors?.length ? error.fieldErrors : [{ field: 'form', message: error.message }];
      await this.render(await this.viewers.of(request), response, 400, { values, errors });
      return;
    }
    response.redirect(303, '/console/company?done=employee-saved#employees-heading');
  }

  /** Removes a mapping through EmployeeDirectory, as DELETE /v1/config/employees/{userId} does. */
  @Post('employees/remove')
  @ConsolePage('config', 'admin')
  async removeEmployee(@Req() request: ConsoleRequest, @Body() form: Form, @Res() response: Response): Promise<void> {
    await this.employees.delete(request.identity!.company, field(form, 'userId'));
    response.redirect(303, '/console/company?done=employee-removed#employees-heading');
  }

  /** Where a connect form may redirect the browser: the providers' consent screens. */
  private consentOrigins(): string[] {
    return this.start.consentOrigins();
  }
}

/** The settings form as the use case's input (the same validation as PUT /v1/config/company). */
function settingsChanges(form: Form): CompanySettingsInput {
  const delay = field(form, 'executionDelayMinutes');
  if (!/^\d{1,6}$/.test(delay)) invalidField('executionDelayMinutes', 'must be a whole number of minutes');
  const limit = field(form, 'autoApproveMaxAmount').replace(/\s/g, '').replace(',', '.');
  const openPeriodStart = field(form, 'openPeriodStart');
  const target = (name: string) => {
    const url = field(form, `${name}.url`);
    return url === '' ? null : { kind: field(form, `${name}.kind`), url };
  };
  return {
    executionDelayMinutes: Number(delay),
    autoApproveMaxAmount: limit === '' ? null : limit,
    paymentAccount: field(form, 'paymentAccount'),
    paymentAccounts: {
      company_card: field(form, 'paymentAccounts.company_card') || null,
      employee: field(form, 'paymentAccounts.employee'),
    },
    locale: field(form, 'locale'),
    openPeriodStart: openPeriodStart === '' ? null : openPeriodStart,
    reviewChannel: target('reviewChannel'),
    invoicesChannel: target('invoicesChannel'),
    gatewayCallback: target('gatewayCallback'),
  };
}
