import { DEFAULT_EXECUTION_DELAY_MINUTES } from '../proposal/proposal-commands';
import { FieldErrorCollector, invalidField } from '../values/field-errors';
import { PAID_WITH, type PaymentAccounts } from '../bookkeeping/bookkeeping';
import { DomainError } from '../errors/domain-error';
import { AccountingDate, parseAccountingDate } from '../values/accounting-date';
import { MinorUnits, parseMoney } from '../values/money';

/** Where a notification goes: a Slack incoming webhook or a signed JSON webhook (docs/api.md §4.5). */
export interface WebhookTarget {
  readonly kind: 'slack' | 'webhook';
  readonly url: string;
}

/** A company's settings (docs/api.md §5, GET/PUT /config/company). */
export interface CompanySettings {
  readonly reviewChannel: WebhookTarget | null;
  readonly invoicesChannel: WebhookTarget | null;
  readonly gatewayCallback: WebhookTarget | null;
  /** Minutes an auto-approved proposal waits before execution, so that a human can still reject it. */
  readonly executionDelayMinutes: number;
  /**
   * The credit side of a booked expense, by how it was paid (`paidWith`): the bank account, the
   * company card's account (null until set: no chart has a standard one), and the account of what
   * the company owes employees for their outlays. On the wire `paymentAccount` is `bank`.
   */
  readonly paymentAccounts: PaymentAccounts;
  /**
   * The largest amount, in NOK minor units, that may be auto-approved; above it a proposal goes to
   * review whatever its score. A foreign amount is compared by its amount in NOK (one without it is
   * never auto-approved while a limit is set). Null: no limit.
   */
  readonly autoApproveMaxAmount: MinorUnits | null;
  /** How the web console writes numbers and dates: Norwegian (`1 234,50`, `20.11.2026`) or English. */
  readonly locale: CompanyLocale;
  /**
   * The first day of the company's open period: a proposal dated before it is never auto-approved
   * (holdOutsideOpenPeriod). Null: the default, January 1 of the previous calendar year
   * (openPeriodStartOf).
   */
  readonly openPeriodStart: AccountingDate | null;
}

export const COMPANY_LOCALES = ['nb-NO', 'en-GB'] as const;
export type CompanyLocale = (typeof COMPANY_LOCALES)[number];

export const DEFAULT_PAYMENT_ACCOUNT = '1920';
/** NS 4102 2910 "Gjeld til ansatte og eiere": what the company owes employees for their outlays. */
export const DEFAULT_EMPLOYEE_PAYMENT_ACCOUNT = '2910';
export const DEFAULT_PAYMENT_ACCOUNTS: PaymentAccounts = {
  bank: DEFAULT_PAYMENT_ACCOUNT,
  company_card: null,
  employee: DEFAULT_EMPLOYEE_PAYMENT_ACCOUNT,
};
/**
 * NOK 10 000.00. Well below NOK 15 000, from which a purchase with a lifetime of three years or
 * more must be capitalised as a fixed asset rather than expensed (skatteloven § 14-40), so nothing
 * that may need that judgement is booked unseen; above the bills a small company repeats every
 * month (subscriptions, phone, travel, meals), so automation keeps its use; and it bounds what one
 * wrong auto-approval can cost before someone notices.
 */
export const DEFAULT_AUTO_APPROVE_MAX_AMOUNT: MinorUnits = 1_000_000;
/** An upper bound that catches typos (a week); the contract sets none. */
export const MAX_EXECUTION_DELAY_MINUTES = 7 * 24 * 60;

export const DEFAULT_COMPANY_SETTINGS: CompanySettings = {
  reviewChannel: null,
  invoicesChannel: null,
  gatewayCallback: null,
  executionDelayMinutes: DEFAULT_EXECUTION_DELAY_MINUTES,
  paymentAccounts: DEFAULT_PAYMENT_ACCOUNTS,
  autoApproveMaxAmount: DEFAULT_AUTO_APPROVE_MAX_AMOUNT,
  locale: 'nb-NO',
  openPeriodStart: null,
};

/**
 * The first day of the open period on `today` (the date in Norway): the setting, or by default
 * January 1 of the previous calendar year. Last year's books stay open until the annual accounts
 * are done (an AS files them by July 31, the tax return is due by May 31), so a late receipt from
 * last year is ordinary; the year before has been closed and reported, and a booking dated in it
 * is a typo or a correction someone must decide on. A company that closes sooner — last year's
 * accounts done, or a VAT term already reported — sets the date itself.
 */
export function openPeriodStartOf(
  settings: Pick<CompanySettings, 'openPeriodStart'>,
  today: AccountingDate,
): AccountingDate {
  return settings.openPeriodStart ?? `${Number(today.slice(0, 4)) - 1}-01-01`;
}

export interface CompanySettingsInput {
  reviewChannel?: unknown;
  invoicesChannel?: unknown;
  gatewayCallback?: unknown;
  executionDelayMinutes?: unknown;
  /** The bank payment account: `paymentAccounts.bank`. */
  paymentAccount?: unknown;
  /** Any of { bank, company_card (or null), employee }; absent keys keep their value. */
  paymentAccounts?: unknown;
  /** A decimal string in NOK ("10000.00", "0" turns auto-approval off), or null for no limit. */
  autoApproveMaxAmount?: unknown;
  /** "nb-NO" or "en-GB". */
  locale?: unknown;
  /** A date "YYYY-MM-DD", or null for the default (January 1 of the previous calendar year). */
  openPeriodStart?: unknown;
}

function parseTarget(value: unknown, field: string): WebhookTarget | null {
  if (value === null) return null;
  const target = value as { kind?: unknown; url?: unknown } | undefined;
  if (typeof target !== 'object' || target === undefined)
    invalidField(field, 'must be an object { kind, url } or null');
  if (target.kind !== 'slack' && target.kind !== 'webhook')
    invalidField(`${field}.kind`, 'must be "slack" or "webhook"');
  let url: URL | null = null;
  try {
    url = typeof target.url === 'string' ? new URL(target.url) : null;
  } catch {
    url = null;
  }
  if (!url || (url.protocol !== 'https:' && url.protocol !== 'http:'))
    invalidField(`${field}.url`, 'must be an http(s) URL');
  return { kind: target.kind, url: url.toString() };
}

/**
 * Applies a settings update to the current settings; absent keys keep their value, every bad key
 * is reported at once.
 */
export function updateCompanySettings(current: CompanySettings, input: CompanySettingsInput): CompanySettings {
  const errors = new FieldErrorCollector();
  const next: { -readonly [K in keyof CompanySettings]: CompanySettings[K] } = { ...current };
  for (const field of ['reviewChannel', 'invoicesChannel', 'gatewayCallback'] as const) {
    if (input[field] !== undefined) {
      const target = errors.check(() => parseTarget(input[field], field));
      if (target !== undefined) next[field] = target;
    }
  }
  if (input.executionDelayMinutes !== undefined) {
    const delay = errors.check(() => {
      const value = input.executionDelayMinutes;
      if (
        typeof value !== 'number' ||
        !Number.isSafeInteger(value) ||
        value < 0 ||
        value > MAX_EXECUTION_DELAY_MINUTES
      ) {
        invalidField(
          'executionDelayMinutes',
          `must be a whole number of minutes from 0 to ${MAX_EXECUTION_DELAY_MINUTES}`,
        );
      }
      return value;
    });
    if (delay !== undefined) next.executionDelayMinutes = delay;
  }
  const paymentAccounts = errors.check(() => parsePaymentAccounts(current.paymentAccounts, input));
  if (paymentAccounts !== undefined) next.paymentAccounts = paymentAccounts;
  if (input.autoApproveMaxAmount !== undefined) {
    const limit = errors.check(() => parseLimit(input.autoApproveMaxAmount));
    if (limit !== undefined) next.autoApproveMaxAmount = limit;
  }
  if (input.locale !== undefined) {
    const locale = errors.check(() => {
      if (!(COMPANY_LOCALES as readonly unknown[]).includes(input.locale)) {
        invalidField('locale', `must be one of ${COMPANY_LOCALES.join(', ')}`);
      }
      return input.locale as CompanyLocale;
    });
    if (locale !== undefined) next.locale = locale;
  }
  if (input.openPeriodStart !== undefined) {
    const start = errors.check(() =>
      input.openPeriodStart === null ? null : parseAccountingDate(input.openPeriodStart, 'openPeriodStart'),
    );
    if (start !== undefined) next.openPeriodStart = start;
  }
  errors.throwIfAny('the company settings are invalid');
  return next;
}

/** A payment account: an account number, or a Fiken sub-ledger of one (`1920:10001`). */
const PAYMENT_ACCOUNT = /^\d{4,6}(:\d{1,12})?$/;

function parsePaymentAccount(value: unknown, field: string): string {
  if (typeof value !== 'string' || !PAYMENT_ACCOUNT.test(value)) {
    invalidField(
      field,
      'must be an account number of 4 to 6 digits such as "1920", or a sub-ledger such as "1920:10001"',
    );
  }
  return value;
}

function parsePaymentAccounts(current: PaymentAccounts, input: CompanySettingsInput): PaymentAccounts {
  const errors = new FieldErrorCollector();
  const next: { -readonly [K in keyof PaymentAccounts]: PaymentAccounts[K] } = { ...current };
  if (input.paymentAccount !== undefined) {
    const bank = errors.check(() => parsePaymentAccount(input.paymentAccount, 'paymentAccount'));
    if (bank !== undefined) next.bank = bank;
  }
  const given = input.paymentAccounts;
  if (given !== undefined) {
    if (typeof given !== 'object' || given === null || Array.isArray(given)) {
      invalidField('paymentAccounts', 'must be an object { bank, company_card, employee }');
    }
    const accounts = given as Record<string, unknown>;
    for (const key of Object.keys(accounts)) {
      if (!(PAID_WITH as readonly string[]).includes(key)) {
        errors.add(`paymentAccounts.${key}`, `is not a payment method; use ${PAID_WITH.join(', ')}`);
      }
    }
    for (const key of PAID_WITH) {
      const value = accounts[key];
      if (value === undefined) continue;
      const field = `paymentAccounts.${key}`;
      if (value === null) {
        if (key === 'company_card') next.company_card = null;
        else errors.add(field, 'must be an account number; only company_card may be null');
        continue;
      }
      const account = errors.check(() => parsePaymentAccount(value, field));
      if (account !== undefined) next[key] = account;
    }
  }
  if (
    input.paymentAccount !== undefined &&
    accountsBank(given) !== undefined &&
    accountsBank(given) !== input.paymentAccount
  ) {
    errors.add('paymentAccount', 'names paymentAccounts.bank: give one of them, or the same account in both');
  }
  errors.throwIfAny('the payment accounts are invalid');
  return next;
}

function accountsBank(given: unknown): unknown {
  return typeof given === 'object' && given !== null ? (given as { bank?: unknown }).bank : undefined;
}

/**
 * The payment accounts with each code as the company's chart has it: a code the chart holds is
 * kept; a plain account number the chart holds only as sub-ledgers (Fiken: `1920` → `1920:10001`)
 * is resolved to its one sub-ledger. A code missing from the chart, or with several sub-ledgers to
 * choose from, is refused naming the field (`unknown_account_code`, 422).
 */
export function resolvePaymentAccounts(
  accounts: PaymentAccounts,
  chart: readonly { readonly code: string }[],
  changed: readonly (keyof PaymentAccounts)[] = PAID_WITH,
): PaymentAccounts {
  const next: { -readonly [K in keyof PaymentAccounts]: PaymentAccounts[K] } = { ...accounts };
  for (const key of changed) {
    const code = accounts[key];
    if (code === null) continue;
    const field = key === 'bank' ? 'paymentAccount' : `paymentAccounts.${key}`;
    if (chart.some((account) => account.code === code)) continue;
    const subLedgers = code.includes(':') ? [] : chart.filter((account) => account.code.startsWith(`${code}:`));
    if (subLedgers.length === 1) {
      next[key] = subLedgers[0].code;
      continue;
    }
    const message =
      subLedgers.length === 0
        ? `account ${code} is not in the company's chart of accounts`
        : `account ${code} has ${subLedgers.length} sub-ledgers in the company's chart (${subLedgers
            .map((account) => account.code)
            .join(', ')}): name one`;
    throw new DomainError('unknown_account_code', message, [{ field, message }]);
  }
  return next;
}

function parseLimit(value: unknown): MinorUnits | null {
  if (value === null) return null;
  const message = 'must be an amount in NOK as a decimal string, such as "10000.00", or null for no limit';
  if (typeof value !== 'string') invalidField('autoApproveMaxAmount', message);
  const minor = parseMoney(value, 'autoApproveMaxAmount');
  if (minor < 0) invalidField('autoApproveMaxAmount', message);
  return minor;
}
