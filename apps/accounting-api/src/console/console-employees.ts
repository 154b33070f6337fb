import { CHANNELS, ROLES, type EmployeeMapping, type FieldError, type ProviderEmployee } from '@app/domain';
import { LABELS } from './console-labels';
import { html, type Html } from './html';
import { consoleTable } from './console-table';

type Form = Record<string, unknown>;

/** What the employee form holds, as typed: kept as it was when saving fails. */
export interface EmployeeFormValues {
  readonly userId: string;
  readonly email: string;
  readonly role: string;
  /** One `channel: id` per line. */
  readonly identities: string;
  readonly providerEmployeeId: string;
}

/** The employee form on the company page: empty, prefilled to change a mapping, or sent back with errors. */
export interface EmployeeFormState {
  readonly values: EmployeeFormValues;
  readonly errors: readonly FieldError[];
}

export const EMPTY_EMPLOYEE_FORM: EmployeeFormState = {
  values: { userId: '', email: '', role: 'employee', identities: '', providerEmployeeId: '' },
  errors: [],
};

function field(form: Form, name: string): string {
  const value = form[name];
  return typeof value === 'string' ? value.trim() : '';
}

export function employeeFormValues(form: Form): EmployeeFormValues {
  return {
    userId: field(form, 'userId'),
    email: field(form, 'email'),
    role: field(form, 'role'),
    identities: field(form, 'identities'),
    providerEmployeeId: field(form, 'providerEmployeeId'),
  };
}

export function employeeFormOf(mapping: EmployeeMapping): EmployeeFormState {
  return {
    values: {
      userId: mapping.userId,
      email: mapping.email,
      role: mapping.role,
      identities: mapping.externalIdentities.map((i) => `${i.channel}: ${i.externalId}`).join('\n'),
      providerEmployeeId: mapping.providerEmployeeId ?? '',
    },
    errors: [],
  };
}

/**
 * The form as the body of PUT /v1/config/employees/{userId}: each non-empty line of the identities
 * is `channel: id` (split at the first colon); the use case validates every field.
 */
export function employeeBody(values: EmployeeFormValues): {
  email: string;
  role: string;
  externalIdentities: { channel: string; externalId: string }[];
  providerEmployeeId: string | null;
} {
  const externalIdentities = values.identities
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== '')
    .map((line) => {
      const colon = line.indexOf(':');
      return colon < 0
        ? { channel: line, externalId: '' }
        : { channel: line.slice(0, colon).trim().toLowerCase(), externalId: line.slice(colon + 1).trim() };
    });
  return {
    email: values.email,
    role: values.role,
    externalIdentities,
    providerEmployeeId: values.providerEmployeeId === '' ? null : values.providerEmployeeId,
  };
}

/** The form's field a use-case error names (`externalIdentities.2.channel` is line 3 of the identities). */
function formField(error: FieldError): keyof EmployeeFormValues | null {
  if (error.field.startsWith('externalIdentities')) return 'identities';
  const known: Record<string, keyof EmployeeFormValues> = {
    userId: 'userId',
    email: 'email',
    role: 'role',
    providerEmployeeId: 'providerEmployeeId',
  };
  return known[error.field] ?? null;
}

const FIELD_LABELS: Record<keyof EmployeeFormValues, string> = {
  userId: 'Gateway user id',
  email: 'Email',
  role: 'Role',
  identities: 'Chat identities',
  providerEmployeeId: 'Employee at the provider',
};

function errorText(error: FieldError): string {
  const line = /^externalIdentities\.(\d+)\./.exec(error.field);
  const target = formField(error);
  const where = target === null ? error.field : FIELD_LABELS[target];
  return line ? `${where}, line ${Number(line[1]) + 1}: ${error.message}` : `${where}: ${error.message}`;
}

/** The mapped employees: a table, each row with a link that fills the form with it and a remove button. */
export function employeeTable(
  csrf: Html,
  employees: readonly EmployeeMapping[],
  providerEmployees: readonly ProviderEmployee[],
): Html {
  const name = (id: string | null) => {
    if (id === null) return '—';
    const known = providerEmployees.find((e) => e.id === id);
    return known ? `${known.firstName} ${known.lastName} (${id})` : id;
  };
  const columns = [
    { heading: 'Gateway user id', cell: (e: EmployeeMapping) => e.userId },
    { heading: 'Email', cell: (e: EmployeeMapping) => e.email },
    { heading: 'Role', cell: (e: EmployeeMapping) => LABELS.role[e.role] },
    {
      heading: 'Chat identities',
      cell: (e: EmployeeMapping) => e.externalIdentities.map((x) => `${x.channel}: ${x.externalId}`).join(', ') || '—',
    },
    { heading: 'Employee at the provider', cell: (e: EmployeeMapping) => name(e.providerEmployeeId) },
  ];
  const actions = {
    heading: 'Actions',
    cell: (e: EmployeeMapping) =>
      html`<a
          href="/console/company?employee=${encodeURIComponent(e.userId)}#employee-form"
          aria-label="Change the mapping of ${e.userId}"
          >Change</a
        >
        <form method="post" action="/console/company/employees/remove" class="inline">
          ${csrf}
          <input type="hidden" name="userId" value="${e.userId}" />
          <button type="submit" class="danger" aria-label="Remove the mapping of ${e.userId}">Remove</button>
        </form>`,
  };
  return consoleTable([...columns, actions], employees, {
    rowAttributes: (e) => html`data-user="${e.userId}"`,
  });
}

/**
 * The form that adds or changes a mapping (PUT semantics: a user id that is mapped already is
 * replaced). Errors are listed above the fields, each field that has one is marked invalid and
 * described by them.
 */
export function employeeForm(
  csrf: Html,
  state: EmployeeFormState,
  providerEmployees: readonly ProviderEmployee[],
): Html {
  const v = state.values;
  const invalid = new Set(state.errors.map(formField));
  const describedBy = (name: keyof EmployeeFormValues, hint?: string) => {
    const ids = [hint, invalid.has(name) ? 'employee-errors' : undefined].filter(Boolean).join(' ');
    return html`${ids ? html`aria-describedby="${ids}"` : ''} ${invalid.has(name) ? html`aria-invalid="true"` : ''}`;
  };
  const errors = state.errors.length
    ? html`<div class="error" id="employee-errors" role="alert">
        <p>The mapping was not saved:</p>
        <ul>
          ${state.errors.map((e) => html`<li>${errorText(e)}</li>`)}
        </ul>
      </div>`
    : '';
  const known = providerEmployees.some((e) => e.id === v.providerEmployeeId);
  const providerField =
    providerEmployees.length > 0
      ? html`<select id="employee-provider" name="providerEmployeeId" ${describedBy('providerEmployeeId')}>
          <option value="">— none —</option>
          ${
            v.providerEmployeeId !== '' && !known
              ? html`<option value="${v.providerEmployeeId}" selected>${v.providerEmployeeId}</option>`
              : ''
          }
          ${providerEmployees.map(
            (e) =>
              html`<option value="${e.id}" ${e.id === v.providerEmployeeId ? html`selected` : ''}>
                ${e.firstName} ${e.lastName}${e.email ? ` <${e.email}>` : ''} (${e.id})
              </option>`,
          )}
        </select>`
      : html`<input
          id="employee-provider"
          name="providerEmployeeId"
          value="${v.providerEmployeeId}"
          autocomplete="off"
          ${describedBy('providerEmployeeId')}
        />`;
  return html`<form method="post" action="/console/company/employees" class="settings" id="employee-form">
    ${csrf} ${errors}
    <label for="employee-user">Gateway user id</label>
    <input
      id="employee-user"
      name="userId"
      value="${v.userId}"
      required
      maxlength="128"
      autocomplete="off"
      ${describedBy('userId', 'employee-user-hint')}
    />
    <p class="hint" id="employee-user-hint">The id the gateway knows the person by. A mapped id is replaced.</p>
    <label for="employee-email">Email</label>
    <input
      id="employee-email"
      name="email"
      type="email"
      value="${v.email}"
      required
      autocomplete="off"
      ${describedBy('email')}
    />
    <label for="employee-role">Role</label>
    <select id="employee-role" name="role" ${describedBy('role')}>
      ${ROLES.map((r) => html`<option value="${r}" ${r === v.role ? html`selected` : ''}>${LABELS.role[r]}</option>`)}
    </select>
    <label for="employee-identities">Chat identities</label>
    <textarea
      id="employee-identities"
      name="identities"
      rows="3"
      ${describedBy('identities', 'employee-identities-hint')}
    >
${v.identities}</textarea>
    <p class="hint" id="employee-identities-hint">
      One per line, as <code>channel: id</code>, e.g. <code>slack: U0123ABCD</code>. Channels: ${CHANNELS.join(', ')}.
    </p>
    <label for="employee-provider">Employee at the provider</label>
    ${providerField}
    <p><button type="submit">Save the mapping</button></p>
  </form>`;
}
