import type { ProviderKind } from '@app/domain';

/** How the daily check runs (DAILY_CHECK_* configuration); every value has a default. */
export class DailyCheckOptions {
  /** The missing-receipts window: postings of the last N days before the run's day. */
  readonly lookbackDays: number;
  /** Items of each check carried in the invoices-channel message (the counts are always complete). */
  readonly itemsPerMessage: number;
  /**
   * Companies checked at once, per provider kind (and `none`, the companies without a provider):
   * a lane for every kind named, the runner claiming each kind's companies separately. The app
   * names every registered provider, with its configured figure or its definition's default
   * (`ProviderDefinition.dailyCheckConcurrency`); a kind named without a figure gets 16.
   */
  readonly concurrency: Readonly<Record<ProviderKind | 'none', number>>;
  /**
   * One company at a time, whatever `concurrency` says (DAILY_CHECK_SERIAL: for a database or
   * provider account that should see one company's check at a time).
   */
  readonly serial: boolean;
  /** How long a claimed run is held before another instance may take it over. */
  readonly leaseMs: number;
  /** A failed company is tried again after this long… */
  readonly retryDelayMs: number;
  /** …up to this many attempts in all. */
  readonly maxAttempts: number;
  /** The service's public URL (PUBLIC_URL): the message links to the console's lists under it. Null: no links. */
  readonly publicUrl: string | null;

  constructor(
    options: Partial<Omit<DailyCheckOptions, 'concurrency'>> & {
      concurrency?: Partial<Record<ProviderKind | 'none', number>>;
    } = {},
  ) {
    this.lookbackDays = whole(options.lookbackDays ?? 30, 'lookbackDays', 1);
    this.itemsPerMessage = whole(options.itemsPerMessage ?? 50, 'itemsPerMessage', 0);
    const configured: Partial<Record<string, number>> = options.concurrency ?? {};
    const kinds = Object.keys(configured).filter((kind) => kind !== 'none');
    this.concurrency = Object.fromEntries([
      ...kinds.map((kind) => {
        const figure = configured[kind] ?? DEFAULT_CONCURRENCY;
        return [kind, whole(figure, `concurrency.${kind}`, 1)];
      }),
      ['none', whole(options.concurrency?.none ?? 2, 'concurrency.none', 1)],
    ]) as Record<ProviderKind | 'none', number>;
    this.serial = options.serial ?? false;
    this.leaseMs = whole(options.leaseMs ?? 15 * 60_000, 'leaseMs', 1);
    this.retryDelayMs = whole(options.retryDelayMs ?? 60 * 60_000, 'retryDelayMs', 1);
    this.maxAttempts = whole(options.maxAttempts ?? 4, 'maxAttempts', 1);
    this.publicUrl = options.publicUrl ? options.publicUrl.replace(/\/+$/, '') : null;
  }
}

/** Companies of a provider checked at once when nothing says otherwise (see `concurrency`). */
const DEFAULT_CONCURRENCY = 16;

function whole(value: number, name: string, min: number): number {
  if (!Number.isSafeInteger(value) || value < min)
    throw new RangeError(`daily check ${name} must be a whole number ≥ ${min}`);
  return value;
}
