import { ProviderError, type AccountingProvider, type ExpenseBooking, type ProviderConnection } from '@app/domain';
import { receiptPdf } from '../mothers/receipt-pdf.mother';
import { aBooking } from '../mothers/booking.mother';

/** A booking as the provider itself holds it, read past the adapter (the sandbox's control, the fake's ledger). */
export interface BookingAtProvider {
  readonly bookingId: string;
  readonly hasAttachment: boolean;
}

/** An adapter on a company it can book into, and a way to see the provider's side. */
export interface AccountingProviderUnderTest {
  readonly provider: AccountingProvider;
  readonly connection: ProviderConnection;
  /** An expense account of the company's chart (`"6540"`) and the account it pays from (`"1920"`, `"1920:10001"`). */
  readonly expenseAccount: string;
  readonly paymentAccount: string;
  /** A date the provider books on (an open period). */
  readonly date: string;
  /** The bookings made in the company so far, as the provider holds them. */
  bookingsAtProvider(): Promise<readonly BookingAtProvider[]>;
}

/**
 * The AccountingProvider contract, the same for every provider: the chart has the accounts booked
 * to; a booking carries our reference and is found again by it; a receipt is attached with the
 * booking or afterwards; a booking the provider cannot take is refused as a ProviderError before
 * anything is booked. What was booked is checked at the provider itself (`bookingsAtProvider`), so
 * an adapter cannot pass by agreeing with itself.
 */
export function describeAccountingProviderContract(
  name: string,
  factory: () => AccountingProviderUnderTest | Promise<AccountingProviderUnderTest>,
): void {
  describe(`AccountingProvider contract: ${name}`, () => {
    let subject: AccountingProviderUnderTest;
    let serial = 0;

    beforeEach(async () => {
      subject = await factory();
    });

    function booking(overrides: Partial<ExpenseBooking> = {}): ExpenseBooking {
      serial += 1;
      return aBooking({
        reference: `contract-${Date.now().toString(36)}-${serial}`,
        date: subject.date,
        description: 'Printer paper',
        merchant: 'Clas Ohlson',
        accountCode: subject.expenseAccount,
        vatRate: '25',
        grossAmount: 12_500,
        currency: 'NOK',
        amountNok: null,
        paymentAccount: subject.paymentAccount,
        ...overrides,
      });
    }

    const receipt = () => ({ filename: 'receipt.pdf', contentType: 'application/pdf', bytes: receiptPdf() });

    it('reads a chart with the accounts the company books to, and a 25 % VAT type', async () => {
      const context = await subject.provider.fetchContext(subject.connection);
      const codes = context.accounts.map((a) => a.code);
      expect(codes).toContain(subject.expenseAccount);
      expect(codes).toContain(subject.paymentAccount);
      expect(context.vatTypes.map((v) => Number(v.ratePercent))).toContain(25);
    });

    it('books an expense with its receipt, found again by its reference', async () => {
      const expense = booking({ receipt: receipt() });

      const booked = await subject.provider.bookExpense(subject.connection, expense);

      expect(booked).toEqual({ bookingId: expect.any(String), hasAttachment: true });
      expect(
        await subject.provider.findBookingByReference(subject.connection, expense.reference, expense.date),
      ).toEqual(booked);
      expect(await subject.bookingsAtProvider()).toContainEqual({ bookingId: booked.bookingId, hasAttachment: true });
    });

    it('books without a receipt, and attaches one afterwards', async () => {
      const expense = booking();
      const booked = await subject.provider.bookExpense(subject.connection, expense);
      expect(booked.hasAttachment).toBe(false);

      await subject.provider.attachReceipt(subject.connection, booked.bookingId, receipt());

      expect(
        await subject.provider.findBookingByReference(subject.connection, expense.reference, expense.date),
      ).toEqual({
        bookingId: booked.bookingId,
        hasAttachment: true,
      });
      expect(await subject.bookingsAtProvider()).toContainEqual({ bookingId: booked.bookingId, hasAttachment: true });
    });

    it('finds nothing for a reference it never booked', async () => {
      expect(
        await subject.provider.findBookingByReference(subject.connection, 'never-booked-reference', subject.date),
      ).toBeNull();
    });

    it.each<[string, Partial<ExpenseBooking>, string]>([
      ['a VAT rate the provider has no type for', { vatRate: '13' }, 'unknown_vat_rate'],
      ['a foreign currency without the NOK amount paid', { currency: 'EUR', amountNok: null }, 'rejected'],
    ])('refuses %s before anything is booked', async (_case, overrides, reason) => {
      const before = (await subject.bookingsAtProvider()).length;

      const refused = await subject.provider
        .bookExpense(subject.connection, booking({ ...overrides, receipt: receipt() }))
        .then(
          () => undefined,
          (error: unknown) => error,
        );

      expect(refused).toBeInstanceOf(ProviderError);
      expect(refused).toMatchObject({ provider: subject.connection.provider, reason });
      expect(await subject.bookingsAtProvider()).toHaveLength(before);
    });

    it("reads a booking's postings back from the provider's ledger: balanced, the gross on the debit side, credited to the payment account", async () => {
      const expense = booking();
      const booked = await subject.provider.bookExpense(subject.connection, expense);

      const postings = await subject.provider.bookedPostings(subject.connection, booked.bookingId);

      const ledgerAccount = (code: string) => code.split(':')[0];
      expect(postings.reduce((sum, p) => sum + p.amount, 0)).toBe(0);
      expect(postings.every((p) => Number.isSafeInteger(p.amount))).toBe(true);
      expect(postings.filter((p) => p.amount > 0).reduce((sum, p) => sum + p.amount, 0)).toBe(expense.grossAmount);
      expect(postings.some((p) => p.accountCode === subject.expenseAccount && p.amount > 0 && !p.generated)).toBe(true);
      const credits = postings.filter((p) => p.amount < 0 && !p.generated);
      expect(credits.map((p) => [ledgerAccount(p.accountCode), p.amount])).toEqual([
        [ledgerAccount(subject.paymentAccount), -expense.grossAmount],
      ]);
    });

    it('refuses to read the postings of a booking it does not have', async () => {
      const refused = await subject.provider.bookedPostings(subject.connection, '987654321').then(
        () => undefined,
        (error: unknown) => error,
      );
      expect(refused).toBeInstanceOf(ProviderError);
    });

    it("reads each account's balance at a date as integer minor units", async () => {
      const balances = await subject.provider.balances(subject.connection, subject.date);
      expect(balances.length).toBeGreaterThan(0);
      for (const balance of balances) expect(Number.isSafeInteger(balance.balance)).toBe(true);
    });
  });
}
