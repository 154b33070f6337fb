import { Injectable } from '@nestjs/common';
import {
  AccountBalance,
  AccountingProvider,
  BookingRef,
  ExpenseBooking,
  HistoryPage,
  LedgerVoucher,
  OpenInvoice,
  Posting,
  ProviderCallOptions,
  ProviderConnection,
  ProviderContext,
  Receipt,
} from '@app/domain';
import { ProviderRegistry } from './provider-registry';

/** The AccountingProvider the application uses: each call goes to the registered adapter of `conn.provider`. */
@Injectable()
export class RoutingAccountingProvider extends AccountingProvider {
  constructor(private readonly registry: ProviderRegistry) {
    super();
  }

  fetchContext(conn: ProviderConnection, options?: ProviderCallOptions): Promise<ProviderContext> {
    return this.adapter(conn).fetchContext(conn, options);
  }

  balances(conn: ProviderConnection, date: string, options?: ProviderCallOptions): Promise<AccountBalance[]> {
    return this.adapter(conn).balances(conn, date, options);
  }

  voucherPages(
    conn: ProviderConnection,
    from: string,
    to?: string,
    options?: ProviderCallOptions,
  ): AsyncIterable<readonly LedgerVoucher[]> {
    return this.adapter(conn).voucherPages(conn, from, to, options);
  }

  openInvoicePages(
    conn: ProviderConnection,
    asOf: string,
    options?: ProviderCallOptions,
  ): AsyncIterable<readonly OpenInvoice[]> {
    return this.adapter(conn).openInvoicePages(conn, asOf, options);
  }

  bookingHistoryPages(
    conn: ProviderConnection,
    from: string,
    to: string,
    cursor: string | null,
    options?: ProviderCallOptions,
  ): AsyncIterable<HistoryPage> {
    return this.adapter(conn).bookingHistoryPages(conn, from, to, cursor, options);
  }

  bookExpense(conn: ProviderConnection, booking: ExpenseBooking, options?: ProviderCallOptions): Promise<BookingRef> {
    return this.adapter(conn).bookExpense(conn, booking, options);
  }

  attachReceipt(
    conn: ProviderConnection,
    bookingId: string,
    receipt: Receipt,
    options?: ProviderCallOptions,
  ): Promise<void> {
    return this.adapter(conn).attachReceipt(conn, bookingId, receipt, options);
  }

  bookedPostings(conn: ProviderConnection, bookingId: string, options?: ProviderCallOptions): Promise<Posting[]> {
    return this.adapter(conn).bookedPostings(conn, bookingId, options);
  }

  findBookingByReference(
    conn: ProviderConnection,
    reference: string,
    dateHint: string,
    options?: ProviderCallOptions,
  ): Promise<BookingRef | null> {
    return this.adapter(conn).findBookingByReference(conn, reference, dateHint, options);
  }

  private adapter(conn: ProviderConnection): AccountingProvider {
    return this.registry.adapter(conn.provider);
  }
}
