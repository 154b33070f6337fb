import { plural, type DailyCheck } from '../daily-check';

/** An item of the message's `overdueInvoices`. */
interface OverdueInvoiceItem {
  readonly id: string;
  readonly invoiceNumber: string;
  readonly customer: string;
  readonly dueDate: string;
  readonly daysOverdue: number;
  readonly outstanding: string;
  readonly currency: string;
}

/** Customer invoices past their due date on the run's day (ProviderChecks.overdueInvoices). */
export const overdueInvoicesCheck: DailyCheck = {
  id: 'overdueInvoices',
  title: 'Overdue invoices',

  async run({ companyId, day, limit, checks }) {
    const report = await checks.overdueInvoices(companyId, { asOf: day, limit });
    const items: OverdueInvoiceItem[] = report.items.map((item) => ({
      id: item.id,
      invoiceNumber: item.number,
      customer: item.customerName,
      dueDate: item.dueDate,
      daysOverdue: item.daysOverdue,
      outstanding: item.outstanding,
      currency: item.currency,
    }));
    return {
      count: report.count,
      payload: {
        overdueInvoices: items,
        overdueInvoicesCount: report.count,
        totalOutstanding: report.totalOutstanding,
      },
    };
  },

  render(payload) {
    const items = payload.overdueInvoices as readonly OverdueInvoiceItem[] | undefined;
    if (!Array.isArray(items)) return null;
    return {
      listed: items.length,
      summary: plural(items.length, 'overdue invoice'),
      allClear: 'no overdue invoices',
      tally: plural(items.length, 'invoice'),
      heading: 'Overdue invoices',
      lines: items.map(
        (i) => `#${i.invoiceNumber} · ${i.customer} · due ${i.dueDate} · ${i.outstanding} ${i.currency} outstanding`,
      ),
    };
  },
};
