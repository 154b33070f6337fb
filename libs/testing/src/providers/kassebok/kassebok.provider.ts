import {
  AccountingProvider,
  Clock,
  ProviderError,
  ProviderReauthorizationRequired,
  ProviderTokenStore,
  type AccountBalance,
  type BookingRef,
  type ExpenseBooking,
  type HistoryPage,
  type LedgerVoucher,
  type OpenInvoice,
  type Posting,
  type ProviderConnection,
  type ProviderContext,
  type Receipt,
} from '@app/domain';
import { attachOnce, bookThenAttach, type ReceiptTarget } from '@app/providers';
import { KASSEBOK_ACCOUNTS, KASSEBOK_VAT_RATES, type KassebokEntry, type KassebokLedger } from './kassebok-ledger';

/** A company's connection to Kassebok: its OAuth tokens are in the ProviderTokenStore. */
export interface KassebokConnection extends ProviderConnection {
  readonly provider: 'kassebok';
  readonly companySlug: string;
}

const RECEIPTS: ReceiptTarget = { provider: 'kassebok', receiptTypes: ['application/pdf', 'image/png'] };

/** The AccountingProvider adapter of Kassebok (an in-memory ledger). */
export class KassebokProvider extends AccountingProvider {
  constructor(
    private readonly ledger: KassebokLedger,
    private readonly tokens: ProviderTokenStore,
    private readonly clock: Clock,
  ) {
    super();
  }

  async fetchContext(conn: ProviderConnection): Promise<ProviderContext> {
    await this.entries(conn);
    return {
      accounts: KASSEBOK_ACCOUNTS.map((a) => ({ ...a })),
      departments: [],
      vatTypes: KASSEBOK_VAT_RATES.map((rate) => ({ id: rate, code: rate, name: `${rate} %`, ratePercent: rate })),
      employees: [],
      voucherTypes: [],
      inactiveSuppliers: [],
    };
  }

  async balances(conn: ProviderConnection, date: string): Promise<AccountBalance[]> {
    const entries = (await this.entries(conn)).filter((e) => e.date <= date);
    return KASSEBOK_ACCOUNTS.map(({ code, name }) => ({
      code,
      name,
      balance: entries.reduce(
        (sum, e) => sum + (e.expenseAccount === code ? e.amount : 0) - (e.paymentAccount === code ? e.amount : 0),
        0,
      ),
    }));
  }

  async *voucherPages(conn: ProviderConnection, from: string, to = '9999-12-31'): AsyncIterable<LedgerVoucher[]> {
    const entries = (await this.entries(conn)).filter((e) => e.date >= from && e.date <= to);
    yield entries.map((e) => ({
      id: e.id,
      number: e.id,
      date: e.date,
      description: e.text,
      amount: e.amount,
      hasAttachment: e.attachment !== null,
    }));
  }

  async *openInvoicePages(conn: ProviderConnection): AsyncIterable<OpenInvoice[]> {
    await this.entries(conn);
    yield [];
  }

  async *bookingHistoryPages(conn: ProviderConnection): AsyncIterable<HistoryPage> {
    // Every booking in Kassebok was made by the service, which leaves its own out of the history.
    await this.entries(conn);
    yield { bookings: [], cursor: null, total: 0 };
  }

  async bookExpense(conn: ProviderConnection, booking: ExpenseBooking): Promise<BookingRef> {
    const entries = await this.entries(conn);
    if (!KASSEBOK_ACCOUNTS.some((a) => a.code === booking.accountCode))
      throw new ProviderError('kassebok', 'unknown_account', `Kassebok has no account ${booking.accountCode}`);
    if (!(KASSEBOK_VAT_RATES as readonly string[]).includes(booking.vatRate))
      throw new ProviderError('kassebok', 'unknown_vat_rate', `Kassebok has no VAT rate ${booking.vatRate} %`);
    if (booking.currency !== 'NOK' && booking.amountNok === null)
      throw new ProviderError('kassebok', 'rejected', `a booking in ${booking.currency} needs the NOK amount paid`);
    return bookThenAttach(RECEIPTS, booking, {
      prepare: async () => ({
        id: this.ledger.nextId(),
        reference: booking.reference,
        date: booking.date,
        text: `${booking.merchant}: ${booking.description ?? ''}`,
        expenseAccount: booking.accountCode,
        paymentAccount: booking.paymentAccount.split(':')[0],
        vatRate: booking.vatRate,
        amount: booking.amountNok ?? booking.grossAmount,
        attachment: null,
      }),
      create: async (entry: KassebokEntry) => {
        entries.push(entry);
        return entry.id;
      },
      findByReference: () => this.findBookingByReference(conn, booking.reference),
      attach: (bookingId, receipt) => this.attachReceipt(conn, bookingId, receipt),
      settleMs: 0,
    });
  }

  async attachReceipt(conn: ProviderConnection, bookingId: string, receipt: Receipt): Promise<void> {
    const entry = (await this.entries(conn)).find((e) => e.id === bookingId);
    if (!entry) throw new ProviderError('kassebok', 'rejected', `Kassebok has no booking ${bookingId}`);
    await attachOnce(RECEIPTS, receipt, {
      upload: async (file) => {
        entry.attachment = file.filename;
      },
      hasAttachment: async () => entry.attachment !== null,
      settleMs: 0,
    });
  }

  /** A Kassebok entry is one debit on the expense account and one credit on the payment account, without VAT postings. */
  async bookedPostings(conn: ProviderConnection, bookingId: string): Promise<Posting[]> {
    const entry = (await this.entries(conn)).find((e) => e.id === bookingId);
    if (!entry) throw new ProviderError('kassebok', 'rejected', `Kassebok has no booking ${bookingId}`);
    const posting = { party: null, description: entry.text, generated: false };
    return [
      { ...posting, accountCode: entry.expenseAccount, amount: entry.amount, vatCode: null },
      { ...posting, accountCode: entry.paymentAccount, amount: -entry.amount, vatCode: null },
    ];
  }

  async findBookingByReference(conn: ProviderConnection, reference: string): Promise<BookingRef | null> {
    const entry = (await this.entries(conn)).find((e) => e.reference === reference);
    return entry ? { bookingId: entry.id, hasAttachment: entry.attachment !== null } : null;
  }

  /** The company's entries, opened with its current access token. */
  private async entries(conn: ProviderConnection): Promise<KassebokEntry[]> {
    if (conn.provider !== 'kassebok') throw new Error(`KassebokProvider was given a ${conn.provider} connection`);
    const { companySlug } = conn as KassebokConnection;
    const tokens = await this.tokens.current(conn.companyId, 'kassebok');
    const entries =
      tokens && tokens.expiresAt > this.clock.now().getTime()
        ? this.ledger.entriesOf(tokens.accessToken, companySlug)
        : null;
    if (!entries)
      throw new ProviderReauthorizationRequired('kassebok', `Kassebok refused the tokens of ${conn.companyId}`);
    return entries;
  }
}
