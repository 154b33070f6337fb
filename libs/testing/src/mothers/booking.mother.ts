import { bookingLinesOf, withExpenseDefaults, type ExpenseBooking } from '@app/domain';

/** The fields an adapter test usually names; the rest default to a single-line expense paid from the bank. */
export type BookingBasics = Pick<
  ExpenseBooking,
  | 'reference'
  | 'date'
  | 'description'
  | 'merchant'
  | 'accountCode'
  | 'vatRate'
  | 'grossAmount'
  | 'currency'
  | 'amountNok'
  | 'paymentAccount'
> &
  Partial<ExpenseBooking>;

/**
 * A booking as the executor builds it from a proposal: one line made of the top-level account,
 * rate and amount (domestic VAT) unless `lines` is given, paid from the bank.
 */
export function aBooking(basics: BookingBasics): ExpenseBooking {
  const details = withExpenseDefaults({
    kind: basics.kind ?? 'expense',
    merchant: basics.merchant,
    amount: basics.grossAmount,
    currency: basics.currency,
    amountNok: basics.amountNok,
    date: basics.date,
    accountCode: basics.accountCode,
    vatRate: basics.vatRate,
    description: basics.description,
    receipt: null,
    thread: null,
    ...(basics.vatTreatment ? { vatTreatment: basics.vatTreatment } : {}),
  });
  return {
    paidWith: details.paidWith,
    vatTreatment: details.vatTreatment,
    lines: bookingLinesOf(details),
    supplier: null,
    invoiceNumber: null,
    dueDate: null,
    employee: null,
    departmentId: null,
    kind: details.kind,
    ...basics,
  };
}
