import type { ExpenseBooking, ProviderVoucherType } from '@app/domain';

/**
 * The voucher type names a booking is filed under, most fitting first, compared without letter case.
 * Tripletex's standard types (every new company has them) include "Leverandørfaktura" for supplier
 * invoices and "Ansattutlegg" for employees' outlays; none of them is for a receipt paid by the
 * company, so a receipt gets a type only when the company added one named "Kvittering" or "Utgift".
 * An outlay with no "Ansattutlegg" falls back to those. Never "Utgående faktura", which Tripletex
 * refuses on a new voucher.
 */
const RECEIPT_TYPES = ['kvittering', 'kvitteringer', 'utgift', 'utgifter'];
const TYPE_NAMES: Record<'supplier_invoice' | 'employee' | 'receipt', readonly string[]> = {
  supplier_invoice: ['leverandørfaktura'],
  employee: ['ansattutlegg', ...RECEIPT_TYPES],
  receipt: RECEIPT_TYPES,
};

/** The company's voucher type (from its cached context) for `booking`, or null: none fits. */
export function voucherTypeFor(
  booking: Pick<ExpenseBooking, 'kind' | 'paidWith' | 'voucherTypes'>,
): ProviderVoucherType | null {
  const types = booking.voucherTypes ?? [];
  const wanted =
    booking.kind === 'supplier_invoice'
      ? TYPE_NAMES.supplier_invoice
      : booking.paidWith === 'employee'
        ? TYPE_NAMES.employee
        : TYPE_NAMES.receipt;
  for (const name of wanted) {
    const found = types.find((type) => nameKey(type.name) === name);
    if (found) return found;
  }
  return null;
}

function nameKey(name: string): string {
  return name.normalize('NFC').trim().toLowerCase();
}
