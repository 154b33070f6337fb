import { Injectable } from '@nestjs/common';
import {
  AccountingProvider,
  Clock,
  FieldErrorCollector,
  formatMoney,
  invalidField,
  parseAccountingDate,
  type LedgerVoucher,
  type OpenInvoice,
  type ProviderKind,
} from '@app/domain';
import { ProviderConnections } from '../onboarding/provider-connections';

/** A voucher (Tripletex) or journal entry (Fiken) without an attachment: a receipt is missing. */
export interface MissingReceipt {
  readonly id: string;
  readonly number: string;
  readonly date: string;
  readonly description: string;
  /** The debit side as a decimal string, null when the provider does not tell it. */
  readonly amount: string | null;
  readonly currency: string;
}

/** A customer invoice past its due date with an amount still outstanding. */
export interface OverdueInvoice {
  readonly id: string;
  readonly number: string;
  readonly customerName: string;
  readonly issueDate: string;
  readonly dueDate: string;
  readonly daysOverdue: number;
  readonly amount: string;
  readonly outstanding: string;
  readonly currency: string;
}

/**
 * A check's result. Every page of the provider is read and counted, but at most `limit` items are
 * kept (memory stays bounded however large the ledger): `count` is how many were found,
 * `truncated` whether `items` holds fewer than that.
 */
export interface CheckReport<T> {
  readonly provider: ProviderKind;
  readonly count: number;
  readonly truncated: boolean;
  readonly items: T[];
}

export interface MissingReceiptsReport extends CheckReport<MissingReceipt> {
  readonly from: string;
  readonly to: string;
}

export interface OverdueInvoicesReport extends CheckReport<OverdueInvoice> {
  readonly asOf: string;
  /** Sum of the outstanding amounts of every overdue invoice found, per currency. */
  readonly totalOutstanding: { readonly currency: string; readonly amount: string }[];
}

export const DEFAULT_MISSING_RECEIPTS_DAYS = 30;
export const DEFAULT_CHECK_ITEM_LIMIT = 500;
export const MAX_CHECK_ITEM_LIMIT = 5_000;

export interface MissingReceiptsQuery {
  /** `YYYY-MM-DD`; default 30 days before `to`. */
  readonly from?: string;
  /** `YYYY-MM-DD`; default today (UTC). */
  readonly to?: string;
  readonly limit?: number;
}

export interface OverdueInvoicesQuery {
  /** `YYYY-MM-DD`; default today (UTC). */
  readonly asOf?: string;
  readonly limit?: number;
}

const DAY_MS = 86_400_000;

export function utcDay(instant: Date): string {
  return instant.toISOString().slice(0, 10);
}

export function addDays(day: string, days: number): string {
  return utcDay(new Date(Date.parse(`${day}T00:00:00Z`) + days * DAY_MS));
}

export function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS);
}

/**
 * The read-only checks of spec §1.5 (GET /check/missing-receipts, GET /check/overdue-invoices and
 * the daily job): read live from the company's provider, page by page, no events, no review.
 * Provider failures propagate as `ProviderError` (502/503/504); a company without a working
 * connection is 409 provider_not_connected.
 */
@Injectable()
export class ProviderChecks {
  constructor(
    private readonly connections: ProviderConnections,
    private readonly provider: AccountingProvider,
    private readonly clock: Clock,
  ) {}

  async missingReceipts(companyId: string, query: MissingReceiptsQuery = {}): Promise<MissingReceiptsReport> {
    const errors = new FieldErrorCollector();
    const to =
      query.to === undefined ? utcDay(this.clock.now()) : errors.check(() => parseAccountingDate(query.to, 'to'));
    const from = query.from === undefined ? undefined : errors.check(() => parseAccountingDate(query.from, 'from'));
    const limit = errors.check(() => parseLimit(query.limit));
    errors.throwIfAny('the check query is invalid');
    const end = to as string;
    const start = from ?? addDays(end, -DEFAULT_MISSING_RECEIPTS_DAYS);
    if (start > end) invalidField('from', `must not be after ${end}`);
    const { record, connection } = await this.connections.require(companyId);
    const report = await this.connections.call(companyId, () =>
      collect(this.provider.voucherPages(connection, start, end), limit as number, (voucher) =>
        missingReceiptOf(voucher),
      ),
    );
    return { provider: record.provider, from: start, to: end, ...report };
  }

  async overdueInvoices(companyId: string, query: OverdueInvoicesQuery = {}): Promise<OverdueInvoicesReport> {
    const errors = new FieldErrorCollector();
    const asOf =
      query.asOf === undefined ? utcDay(this.clock.now()) : errors.check(() => parseAccountingDate(query.asOf, 'asOf'));
    const limit = errors.check(() => parseLimit(query.limit));
    errors.throwIfAny('the check query is invalid');
    const day = asOf as string;
    const { record, connection } = await this.connections.require(companyId);
    const totals = new Map<string, number>();
    const report = await this.connections.call(companyId, () =>
      collect(this.provider.openInvoicePages(connection, day), limit as number, (invoice) => {
        const overdue = overdueInvoiceOf(invoice, day);
        if (overdue) totals.set(invoice.currency, (totals.get(invoice.currency) ?? 0) + invoice.outstanding);
        return overdue;
      }),
    );
    const totalOutstanding = [...totals].map(([currency, minor]) => ({ currency, amount: formatMoney(minor) }));
    return { provider: record.provider, asOf: day, totalOutstanding, ...report };
  }
}

function parseLimit(value: number | undefined): number {
  if (value === undefined) return DEFAULT_CHECK_ITEM_LIMIT;
  if (!Number.isSafeInteger(value) || value < 0 || value > MAX_CHECK_ITEM_LIMIT) {
    invalidField('limit', `must be a whole number from 0 to ${MAX_CHECK_ITEM_LIMIT}`);
  }
  return value;
}

/**
 * Reads every page, keeps at most `limit` of the items `select` accepts, counts them all. Each page
 * is worked through in one synchronous pass, so that it is garbage before the next await.
 */
async function collect<S, T>(
  pages: AsyncIterable<readonly S[]>,
  limit: number,
  select: (item: S) => T | null,
): Promise<Omit<CheckReport<T>, 'provider'>> {
  const items: T[] = [];
  let count = 0;
  for await (const page of pages) {
    for (const item of page) {
      const selected = select(item);
      if (selected === null) continue;
      count++;
      if (items.length < limit) items.push(selected);
    }
  }
  return { count, truncated: count > items.length, items };
}

/**
 * A voucher that should carry a receipt and does not: only purchases and expenses need one
 * (`needsReceipt`, docs/providers.md); sales, payments, payroll, VAT settlements, transfers and
 * opening balances are documented otherwise and never listed.
 */
export function missingReceiptOf(voucher: LedgerVoucher): MissingReceipt | null {
  if (voucher.hasAttachment || voucher.needsReceipt === false) return null;
  return {
    id: voucher.id,
    number: voucher.number,
    date: voucher.date,
    description: voucher.description,
    amount: voucher.amount === undefined ? null : formatMoney(voucher.amount),
    currency: 'NOK',
  };
}

export function overdueInvoiceOf(invoice: OpenInvoice, asOf: string): OverdueInvoice | null {
  if (!(invoice.dueDate < asOf) || invoice.outstanding <= 0) return null;
  return {
    id: invoice.id,
    number: invoice.number,
    customerName: invoice.customerName,
    issueDate: invoice.issueDate,
    dueDate: invoice.dueDate,
    daysOverdue: daysBetween(invoice.dueDate, asOf),
    amount: formatMoney(invoice.amount),
    outstanding: formatMoney(invoice.outstanding),
    currency: invoice.currency,
  };
}
