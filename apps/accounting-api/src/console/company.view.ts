import type { ConnectionOverviewView, EmployeePage } from '@app/application';
import { COMPANY_LOCALES, formatMoney, type CompanyContext, type CompanySettings } from '@app/domain';
import { PROVIDER_KINDS, PROVIDER_NAMES as NAMES } from '@app/providers';
import { employeeForm, employeeTable, type EmployeeFormState } from './console-employees';
import { timeOf } from './console-format';
import { consolePage, csrfField, type ConsoleViewer } from './console-page';
import { consoleText } from './console-text';
import { html, type Html } from './html';

/** What the company page shows. */
export interface CompanyPageView {
  readonly viewer: ConsoleViewer;
  readonly overview: ConnectionOverviewView;
  readonly settings: CompanySettings;
  readonly employees: EmployeePage;
  /** How many employee mappings are listed at most. */
  readonly shownEmployees: number;
  /** The cached chart (for the provider's employees); null before it is fetched. */
  readonly context: CompanyContext | null;
  /** The employee form: empty, prefilled, or sent back with its errors. */
  readonly form: EmployeeFormState;
  readonly notice?: string;
  /** The provider whose Connect button the page asks to press (where the API's connect link leads). */
  readonly prompt?: string;
}

const CHANNELS = [
  ['reviewChannel', 'Review channel', 'proposals that need a reviewer, execution failures'],
  ['invoicesChannel', 'Invoices channel', "the daily check's findings"],
  ['gatewayCallback', 'Gateway callback', 'auto-approvals and rejections, to the user’s thread'],
] as const;

/** The company page (CompanyConsoleController). */
export function renderCompanyPage(page: CompanyPageView): Html {
  const {
    viewer,
    overview: view,
    settings,
    employees,
    shownEmployees: SHOWN_EMPLOYEES,
    context,
    form,
    notice,
    prompt,
  } = page;
  const l = viewer.locale;
  const connection = view.connection;
  const providerEmployees = context?.employees ?? [];
  const connect = PROVIDER_KINDS.map(
    (provider) =>
      html`<form method="post" action="/console/company/connect/${provider}" class="inline">
        ${csrfField(viewer)}
        <button type="submit">${connection?.provider === provider ? 'Reconnect' : 'Connect'} ${NAMES[provider]}</button>
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
        <dd>${timeOf(l, connection.connectedAt)} by ${connection.connectedBy}</dd>
        ${
          connection.reauthorizationReason
            ? html`<dt>Why</dt>
                <dd>${consoleText(viewer, connection.reauthorizationReason)}</dd>`
            : ''
        }
      </dl>`
    : html`<p class="bad" data-connection="none">No accounting system is connected yet.</p>`;
  const chart = view.context
    ? html`<p>
        Fetched ${timeOf(l, view.context.fetchedAt)}: ${view.context.accounts} accounts, ${view.context.vatTypes} VAT
        types, ${view.context.departments} departments, ${view.context.employees} employees.
      </p>`
    : html`<p>The chart has not been fetched yet.</p>`;
  const body = html`${notice ? html`<p class="notice" role="status">${notice}</p>` : ''}
    <section aria-labelledby="connection-heading">
      <h2 id="connection-heading">Accounting system</h2>
      ${
        prompt
          ? html`<p class="notice" role="status" data-connect-prompt="${prompt}">
              To connect ${NAMES[prompt]} to ${viewer.companyName}, press
              “${connection?.provider === prompt ? 'Reconnect' : 'Connect'} ${NAMES[prompt]}” below: ${NAMES[prompt]}'s
              consent screen opens in this browser.
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
  return consolePage(viewer, 'company', 'Company', body);
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
    <label for="payment">Payment account: bank (credit side of an expense paid from the bank)</label>
    <input id="payment" name="paymentAccount" value="${s.paymentAccounts.bank}" required />
    <label for="payment-card">Payment account: company card (empty: not set; card expenses are refused)</label>
    <input id="payment-card" name="paymentAccounts.company_card" value="${s.paymentAccounts.company_card ?? ''}" />
    <label for="payment-employee">Payment account: owed to employees (expenses paid out of pocket)</label>
    <input id="payment-employee" name="paymentAccounts.employee" value="${s.paymentAccounts.employee}" required />
    <p class="hint">An account number such as 1920, or a sub-ledger such as 1920:10001.</p>
    <label for="locale">Number and date format</label>
    <select id="locale" name="locale">
      ${COMPANY_LOCALES.map(
        (l) =>
          html`<option value="${l}" ${l === s.locale ? html`selected` : ''}>
            ${l === 'nb-NO' ? 'Norwegian (1 234,50 · 20. nov. 2026)' : 'English (1,234.50 · 20 Nov 2026)'}
          </option>`,
      )}
    </select>
    ${channels}
    <p><button type="submit">Save settings</button></p>
  </form>`;
}
