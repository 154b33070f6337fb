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

/** Postings of the last `lookbackDays` days without an attachment (ProviderChecks.missingReceipts). */
export const missingReceiptsCheck: DailyCheck = {
  id: 'missingReceipts',
  title: 'Postings without a receipt',

  async run({ companyId, day, lookbackDays, limit, checks }) {
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
      payload: { missingReceiptsFrom: report.from, missingReceipts: items, missingReceiptsCount: report.count },
    };
  },

  render(payload) {
    const items = payload.missingReceipts as readonly MissingReceiptItem[] | undefined;
    if (!Array.isArray(items)) return null;
    const from = String(payload.missingReceiptsFrom);
    return {
      listed: items.length,
      summary: `${plural(items.length, 'posting')} without a receipt since ${from}`,
      allClear: `no postings without a receipt since ${from}`,
      tally: plural(items.length, 'posting'),
      heading: `Missing receipts since ${from}`,
      lines: items.map((r) => `${r.date} · ${r.description} · ${r.amount} ${r.currency} (${r.id})`),
    };
  },
};
