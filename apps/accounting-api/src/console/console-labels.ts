import type { DailyCheckRunStatus } from '@app/application';
import type { Channel, PostingParty, Proposal, Role, Route } from '@app/domain';
import { PROVIDER_NAMES } from '@app/providers';

/**
 * The words the console shows for the API's enum values: one table, so a value reads the same on
 * every page. The raw value stays in a `data-*` attribute where tests and scripts need it.
 */
export const LABELS = {
  status: {
    PROPOSED: 'Waiting for review',
    APPROVED: 'Approved, not yet booked',
    REJECTED: 'Rejected',
    EXECUTED: 'Booked',
  } satisfies Record<Proposal['status'], string>,
  route: {
    auto_approve: 'Auto-approved',
    review_recommended: 'Review recommended',
    review_required: 'Needs review',
  } satisfies Record<Route, string>,
  kind: {
    expense: 'Expense (paid)',
    supplier_invoice: 'Supplier invoice (unpaid)',
  } satisfies Record<Proposal['kind'], string>,
  paidWith: {
    bank: 'Bank account',
    company_card: 'Company card',
    employee: 'Employee, out of pocket (to be reimbursed)',
  } satisfies Record<NonNullable<Proposal['paidWith']>, string>,
  vatTreatment: {
    domestic: 'Domestic, deductible',
    foreign_no_deduction: 'Foreign VAT, no deduction',
    reverse_charge: 'Reverse charge',
  } satisfies Record<Proposal['vatTreatment'], string>,
  role: {
    employee: 'Employee',
    manager: 'Manager',
    accountant: 'Accountant',
    admin: 'Administrator',
  } satisfies Record<Role, string>,
  channel: {
    slack: 'Slack',
    discord: 'Discord',
    teams: 'Teams',
    web: 'web console',
    email: 'email',
  } satisfies Record<Channel, string>,
  checkRun: {
    pending: 'Waiting to run',
    running: 'Running',
    succeeded: 'Done',
    failed: 'Failed',
  } satisfies Record<DailyCheckRunStatus, string>,
  webhook: {
    slack: 'Slack',
    webhook: 'webhook',
  } satisfies Record<'slack' | 'webhook', string>,
  party: {
    supplier: 'Supplier',
    employee: 'Employee',
  } satisfies Record<PostingParty['kind'], string>,
} as const;

/** A provider's name (`tripletex` → Tripletex); the value itself for one the service does not know. */
export function providerLabel(provider: string): string {
  return PROVIDER_NAMES[provider] ?? provider;
}

/** A value's words from one of the tables; the value itself when the table does not know it. */
export function labelOf<T extends keyof typeof LABELS>(table: T, value: string): string {
  return (LABELS[table] as Record<string, string>)[value] ?? value;
}
