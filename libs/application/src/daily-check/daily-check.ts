import type { ProviderChecks } from '../checks/checks';

/** What a daily check is given: one company, one day, and the provider's checks to read through. */
export interface DailyCheckContext {
  readonly companyId: string;
  /** `YYYY-MM-DD` (UTC) of the run's 07:00 slot. */
  readonly day: string;
  /** How far back a check over postings looks (DAILY_CHECK_LOOKBACK_DAYS). */
  readonly lookbackDays: number;
  /** Items of the check carried in the message (the count is always complete). */
  readonly limit: number;
  readonly checks: ProviderChecks;
  /** The service's public URL, for links to the console in the message; null when not configured. */
  readonly publicUrl: string | null;
}

export interface DailyCheckResult {
  /** Everything the check found: stored with the run under the check's id, and counted in the metrics. */
  readonly count: number;
  /** The check's fields of the `daily_check` message's payload (the webhook's JSON: a contract). */
  readonly payload: Readonly<Record<string, unknown>>;
}

/** A check's part of the daily message, rendered from the payload it wrote (plain text; renderers escape it). */
export interface DailyCheckRendering {
  /** Items listed in the message. */
  readonly listed: number;
  /** Its clause of the one-line summary: "3 postings without a receipt since 2026-10-21". */
  readonly summary: string;
  /** Its clause when no check listed anything: "no postings without a receipt since 2026-10-21". */
  readonly allClear: string;
  /** Its count in the message's footer: "3 postings". */
  readonly tally: string;
  /** The heading and one line per item of its list in the message. */
  readonly heading: string;
  readonly lines: readonly string[];
}

/**
 * One check of the daily job: run for each connected company every morning, its count stored with
 * the run (`daily_check_runs.counts`, keyed by `id`), its findings posted in the company's
 * `daily_check` message and shown on the console's checks page. A check is one file in `checks/`
 * and one line in DAILY_CHECKS (docs/architecture.md, "How to add a daily check").
 */
export interface DailyCheck {
  /** Stable: the key of its count in the run history. */
  readonly id: string;
  /** What it counts, for people: "Postings without a receipt". */
  readonly title: string;
  run(context: DailyCheckContext): Promise<DailyCheckResult>;
  /** Null when the payload holds no result of this check (a message written before the check was added). */
  render(payload: Readonly<Record<string, unknown>>): DailyCheckRendering | null;
}

export function plural(count: number, singular: string, pluralForm = `${singular}s`): string {
  return `${count} ${count === 1 ? singular : pluralForm}`;
}
