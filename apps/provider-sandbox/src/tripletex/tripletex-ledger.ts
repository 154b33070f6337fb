import { currencyByCode } from '../seed/currencies';
import { indexRange, ledgerEntry } from '../seed/ledger';
import { seedInvoice } from '../seed/invoices';
import type { TripletexCompany } from './tripletex-company';
import type { TxDocument, TxInvoice, TxPosting, TxVoucher } from './tripletex-model';

/** Seeded vouchers of a company, in Tripletex shape, generated on demand. */
export function seededVoucher(
  company: TripletexCompany,
  index: number,
  attachments: ReadonlyMap<number, TxDocument>,
): TxVoucher {
  const entry = ledgerEntry(company.ledger, index);
  const id = company.voucherId(index);
  const postings: TxPosting[] = entry.lines.map((line, k) => ({
    id: id * 10 + k,
    row: line.row,
    date: entry.date,
    description: line.description,
    accountId: company.accountByNumber(line.account).id,
    amount: line.amount,
    amountGross: line.gross,
    currencyId: 1,
    amountGrossCurrency: line.gross,
    vatTypeId: line.vat ? company.vatTypeByNumber(line.vat).id : null,
    supplierId: line.supplier !== undefined ? company.suppliers[line.supplier].id : null,
    customerId: line.customer !== undefined ? company.customers[line.customer].id : null,
    departmentId: null,
    employeeId: null,
    invoiceNumber: null,
    termOfPayment: null,
    systemGenerated: line.row === 0,
  }));
  const seededDocument: TxDocument | null = entry.hasAttachment
    ? {
        id: id + 1_000_000_000_000,
        fileName: `bilag-${index + 1}.pdf`,
        size: 48_213 + (index % 977),
        mimeType: 'application/pdf',
      }
    : null;
  return {
    id,
    version: 1,
    number: index + 1,
    date: entry.date,
    description: entry.description,
    voucherTypeId: null,
    externalVoucherNumber: null,
    vendorInvoiceNumber: null,
    attachment: attachments.get(id) ?? seededDocument,
    postings,
    inLedger: true,
  };
}

/** Which seeded entry a voucher id names, if any. */
export function seededIndexOf(company: TripletexCompany, voucherId: number): number | undefined {
  const index = voucherId - company.voucherId(0);
  return index >= 0 && index < company.ledger.count ? index : undefined;
}

export function seededRange(company: TripletexCompany, dateFrom: string, dateTo: string): { from: number; to: number } {
  return indexRange(company.ledger, dateFrom, dateTo);
}

export function seededInvoice(company: TripletexCompany, index: number): TxInvoice {
  const invoice = seedInvoice(company.invoiceShape, index);
  return {
    id: company.invoiceId(index),
    invoiceNumber: invoice.invoiceNumber,
    invoiceDate: invoice.issueDate,
    invoiceDueDate: invoice.dueDate,
    customerId: company.customers[invoice.customer].id,
    amount: invoice.gross,
    amountExcludingVat: invoice.net,
    amountOutstanding: invoice.outstanding,
    kid: invoice.kid,
    currencyId: currencyByCode(invoice.currency)?.id ?? 1,
    amountCurrency: invoice.inCurrency.gross,
    amountExcludingVatCurrency: invoice.inCurrency.net,
    amountCurrencyOutstanding: invoice.inCurrency.outstanding,
  };
}
