import { DEFAULT_EXECUTION_DELAY_MINUTES } from '../proposal/proposal-commands';
import { FieldErrorCollector, invalidField } from '../values/field-errors';
import { parseAccountCode } from '../values/account-code';

/** Where a notification goes: a Slack incoming webhook or a signed JSON webhook (api-contract §4.5). */
export interface WebhookTarget {
  readonly kind: 'slack' | 'webhook';
  readonly url: string;
}

/** A company's settings (api-contract §5, GET/PUT /config/company). */
export interface CompanySettings {
  readonly reviewChannel: WebhookTarget | null;
  readonly invoicesChannel: WebhookTarget | null;
  readonly gatewayCallback: WebhookTarget | null;
  /** Minutes an auto-approved proposal waits before execution, so that a human can still reject it. */
  readonly executionDelayMinutes: number;
  /** The credit side of a booked expense. */
  readonly paymentAccount: string;
}

export const DEFAULT_PAYMENT_ACCOUNT = '1920';
/** An upper bound that catches typos (a week); the contract sets none. */
export const MAX_EXECUTION_DELAY_MINUTES = 7 * 24 * 60;

export const DEFAULT_COMPANY_SETTINGS: CompanySettings = {
  reviewChannel: null,
  invoicesChannel: null,
  gatewayCallback: null,
  executionDelayMinutes: DEFAULT_EXECUTION_DELAY_MINUTES,
  paymentAccount: DEFAULT_PAYMENT_ACCOUNT,
};

export interface CompanySettingsInput {
  reviewChannel?: unknown;
  invoicesChannel?: unknown;
  gatewayCallback?: unknown;
  executionDelayMinutes?: unknown;
  paymentAccount?: unknown;
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
  if (input.paymentAccount !== undefined) {
    const account = errors.check(() => parseAccountCode(input.paymentAccount, 'paymentAccount'));
    if (account !== undefined) next.paymentAccount = account;
  }
  errors.throwIfAny('the company settings are invalid');
  return next;
}
