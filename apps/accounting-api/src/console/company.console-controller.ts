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
import {
  COMPANY_LOCALES,
  CompanyContextStore,
  formatMoney,
  invalidField,
  ValidationFailed,
  type CompanySettings,
  type CompanySettingsInput,
} from '@app/domain';
import { PROVIDER_KINDS, PROVIDER_NAMES as NAMES } from '@app/providers';
import { ConsolePage } from '../auth/access.decorator';
import { html, type Html } from './html';
import { providerParam } from '../onboarding/provider-param';
import { ConsoleCookies } from './console-cookies';
import { ConsoleExceptionFilter } from './console-exception.filter';
import { formatInstant } from './console-format';
import {
  EMPTY_EMPLOYEE_FORM,
  employeeBody,
  employeeForm,
  employeeFormOf,
  employeeFormValues,
  employeeTable,
  type EmployeeFormState,
} from './console-employees';
import { consolePage, csrfField, sendConsole, type ConsoleViewer } from './console-page';
import type { ConsoleRequest } from './console-session.guard';
import { ConsoleViewers } from './console-viewers';

const CHANNELS = [
  ['reviewChannel', 'Review channel', 'proposals that need a reviewer, execution failures'],
  ['invoicesChannel', 'Invoices channel', "the daily check's findings"],
  ['gatewayCallback', 'Gateway callback', 'auto-approvals and rejections, to the user’s thread'],
] as const;

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
    private readonly contexts: CompanyContextStore,
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
      this.contexts.get(company),
    ]);
    const l = viewer.locale;
    const connection = view.connection;
    const providerEmployees = context?.employees ?? [];
    const connect = PROVIDER_KINDS.map(
      (provider) =>
        html`<form method="post" action="/console/company/connect/${provider}" class="inline">
          ${csrfField(viewer)}
          <button type="submit">
            ${connection?.provider === provider ? 'Reconnect' : 'Connect'} ${NAMES[provider]}
          </button>
        </form>`,
    );
    const state = connection
      ? html`<dl class="summary">
          <dt>Provider</dt>
          <dd>${NAMES[connection.provider]}</dd>
          <dt>Status</dt>
          <dd class="${connection.status === 'connected' ? 'ok' : 'bad'}" data-connection="${connection.status}">
            ${connection.status === 'connected' ? 'Connected' : 'Needs re-authorisation'}
          </dd>
          <dt>Company at the provider</dt>
          <dd>${connection.externalCompanyName ?? connection.externalCompanyId ?? '—'}</dd>
          <dt>Connected</dt>
          <dd>${formatInstant(l, connection.connectedAt)} by ${connection.connectedBy}</dd>
          ${
            connection.reauthorizationReason
              ? html`<dt>Why</dt>
                  <dd>${connection.reauthorizationReason}</dd>`
              : ''
          }
        </dl>`
      : html`<p class="bad" data-connection="none">No accounting system is connected yet.</p>`;
    const chart = view.context
      ? html`<p>
          Fetched ${formatInstant(l, view.context.fetchedAt)}: ${view.context.accounts} accounts,
          ${view.context.vatTypes} VAT types, ${view.context.departments} departments, ${view.context.employees}
          employees.
        </p>`
      : html`<p>The chart has not been fetched yet.</p>`;
    const body = html`${notice ? html`<p class="notice" role="status">${notice}</p>` : ''}
      <section aria-labelledby="connection-heading">
        <h2 id="connection-heading">Accounting system</h2>
        ${
          prompt
            ? html`<p class="notice" role="status" data-connect-prompt="${prompt}">
                To connect ${NAMES[prompt]} to ${viewer.companyName}, press
                “${connection?.provider === prompt ? 'Reconnect' : 'Connect'} ${NAMES[prompt]}” below:
                ${NAMES[prompt]}'s consent screen opens in this browser.
              </p>`
            : ''
        }
        ${state}
        <p class="hint">
          Connecting opens the provider's consent screen in this browser; it must be finished here, within 10 minutes. A
          company books into one provider: connecting another replaces the connection.
        </p>
        <div class="actions">${connect}</div>
      </section>
      <section aria-labelledby="chart-heading">
        <h2 id="chart-heading">Chart of accounts</h2>
        ${chart}
        <form method="post" action="/console/company/context/refresh" class="inline">
          ${csrfField(viewer)}
          <button type="submit" ${connection ? '' : html`disabled`}>Fetch the chart again</button>
        </form>
      </section>
      <section aria-labelledby="settings-heading">
        <h2 id="settings-heading">Settings</h2>
        ${settingsForm(csrfField(viewer), settings)}
      </section>
      <section aria-labelledby="employees-heading">
        <h2 id="employees-heading">Employees (${view.mappedEmployees})</h2>
        <p class="hint">
          Who a person in the gateway is here: their email and role, the chat identities the gateway resolves through
          <code>/v1/conversation/facts</code>, and their employee record at the provider.
        </p>
        ${
          employees.items.length
            ? employeeTable(csrfField(viewer), employees.items, providerEmployees)
            : html`<p class="empty">No employee is mapped yet.</p>`
        }
        ${employees.nextCursor ? html`<p class="hint">The first ${SHOWN_EMPLOYEES} by user id are shown.</p>` : ''}
        <h3 id="employee-form-heading">Add or change a mapping</h3>
        ${employeeForm(csrfField(viewer), form, providerEmployees)}
      </section>`;
    sendConsole(response, status, consolePage(viewer, 'company', 'Company', body), {
      formTargets: this.consentOrigins(),
    });
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

function settingsForm(csrf: Html, s: CompanySettings): Html {
  const channels = CHANNELS.map(
    ([name, label, hint]) =>
      html`<fieldset>
        <legend>${label}</legend>
        <p class="hint">${hint}</p>
        <label for="${name}-kind">Kind</label>
        <select id="${name}-kind" name="${name}.kind">
          <option value="slack" ${s[name]?.kind === 'slack' ? html`selected` : ''}>Slack</option>
          <option value="webhook" ${s[name]?.kind === 'webhook' ? html`selected` : ''}>Signed webhook</option>
        </select>
        <label for="${name}-url">URL (empty: none)</label>
        <input id="${name}-url" name="${name}.url" type="url" value="${s[name]?.url ?? ''}" autocomplete="off" />
      </fieldset>`,
  );
  return html`<form method="post" action="/console/company/settings" class="settings">
    ${csrf}
    <label for="delay">Execution delay of auto-approvals (minutes)</label>
    <input id="delay" name="executionDelayMinutes" inputmode="numeric" value="${s.executionDelayMinutes}" required />
    <label for="limit">Largest amount auto-approved, NOK (empty: no limit, 0: never)</label>
    <input
      id="limit"
      name="autoApproveMaxAmount"
      inputmode="decimal"
      value="${s.autoApproveMaxAmount === null ? '' : formatMoney(s.autoApproveMaxAmount)}"
    />
    <label for="open-period">Books closed before (first day of the open period; empty: January 1 of last year)</label>
    <input id="open-period" name="openPeriodStart" type="date" value="${s.openPeriodStart ?? ''}" />
    <p class="hint">A proposal dated before it is never auto-approved: a person decides where it belongs.</p>
    <label for="payment">Payment account (credit side)</label>
    <input id="payment" name="paymentAccount" inputmode="numeric" value="${s.paymentAccount}" required />
    <label for="locale">Number and date format</label>
    <select id="locale" name="locale">
      ${COMPANY_LOCALES.map(
        (l) =>
          html`<option value="${l}" ${l === s.locale ? html`selected` : ''}>
            ${l === 'nb-NO' ? 'Norwegian (1 234,50 · 20.11.2026)' : 'English (1,234.50 · 20 Nov 2026)'}
          </option>`,
      )}
    </select>
    ${channels}
    <p><button type="submit">Save settings</button></p>
  </form>`;
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
    locale: field(form, 'locale'),
    openPeriodStart: openPeriodStart === '' ? null : openPeriodStart,
    reviewChannel: target('reviewChannel'),
    invoicesChannel: target('invoicesChannel'),
    gatewayCallback: target('gatewayCallback'),
  };
}
