import { addDays } from '../../checks/checks';
import { plural, type DailyCheck } from '../daily-check';

/** An item of the message's `missingReceipts`. */
interface MissingReceiptItem {
  readonly id: string;
  readonly number: string;
  readonly date: string;
  readonly description: string;
  readonly amount: string;
  readonly currency: string;
}

/** The console's list of the same check (its page runs it again, live). */
export const MISSING_RECEIPTS_CONSOLE_PATH = '/console/checks?run=missing-receipts';

/**
 * Purchases and expenses of the last `lookbackDays` days without a receipt
 * (ProviderChecks.missingReceipts: vouchers that need none are never counted). The message leads
 * with the count of them all, however many it lists, and links to the console's list.
 */
export const missingReceiptsCheck: DailyCheck = {
  id: 'missingReceipts',
  title: 'Purchases and expenses without a receipt',

  async run({ companyId, day, lookbackDays, limit, checks, publicUrl }) {
    const report = await checks.missingReceipts(companyId, { from: addDays(day, -lookbackDays), to: day, limit });
    const items: MissingReceiptItem[] = report.items.map((item) => ({
      id: item.id,
      number: item.number,
      date: item.date,
      description: item.description,
      amount: item.amount ?? '0.00',
      currency: item.currency,
    }));
    return {
      count: report.count,
      payload: {
        missingReceiptsFrom: report.from,
        missingReceipts: items,
        missingReceiptsCount: report.count,
        ...(publicUrl ? { missingReceiptsUrl: `${publicUrl}${MISSING_RECEIPTS_CONSOLE_PATH}` } : {}),
      },
    };
  },

  render(payload) {
    const items = payload.missingReceipts as readonly MissingReceiptItem[] | undefined;
    if (!Array.isArray(items)) return null;
    const from = String(payload.missingReceiptsFrom);
    // The count of them all (the list is capped); messages written before it was stored have the list's length.
    const total = typeof payload.missingReceiptsCount === 'number' ? payload.missingReceiptsCount : items.length;
    const url = typeof payload.missingReceiptsUrl === 'string' ? payload.missingReceiptsUrl : null;
    const shown = items.length < total ? ` (${items.length} listed)` : '';
    return {
      listed: total,
      summary: `${plural(total, 'purchase')} without a receipt since ${from}${url ? ` (list: ${url})` : ''}`,
      allClear: `no purchases without a receipt since ${from}`,
      tally: plural(total, 'purchase'),
      heading: `Missing receipts since ${from}${shown}`,
      lines: items.map((r) => `${r.date} · ${r.description} · ${r.amount} ${r.currency} (${r.id})`),
    };
  },
};
