import type { Router } from 'express';
import { SUPPLIER_ACCOUNT, vatCode } from '../seed/chart';
import { purchaseHistory } from '../seed/history';
import { splitGross } from '../shared/money';
import type { TripletexCompany } from './tripletex-company';
import { callOf, dateRangeOf, sendList } from './tripletex-http';
import type { TxPosting, TxSupplierInvoice, TxVoucher } from './tripletex-model';

/** The history's own random stream, apart from the ledger's and the invoices'. */
const HISTORY_STREAM = 71;

const cache = new WeakMap<TripletexCompany, TxSupplierInvoice[]>();

/** The company's supplier invoices of the last year (seed/history.ts), oldest first. */
export function supplierInvoicesOf(company: TripletexCompany): TxSupplierInvoice[] {
  const cached = cache.get(company);
  if (cached) return cached;
  const { seed, endDate } = company.ledger;
  const invoices = purchaseHistory(seed, HISTORY_STREAM, company.index, endDate)
    .filter((purchase) => purchase.kind === 'invoice')
    .map((purchase, i): TxSupplierInvoice => {
      const supplier = company.suppliers.find((party) => party.name === purchase.merchant) ?? company.suppliers[0];
      const vatType = company.vatTypeByNumber(purchase.vat);
      const { net } = splitGross(purchase.gross, vatCode(purchase.vat).percentage);
      const id = 3_000_000_000 + company.index * 100_000 + i + 1;
      const posting = (row: number, accountNumber: number, gross: number, amount: number, vat: number | null) =>
        ({
          id: id * 10 + row,
          row,
          date: purchase.date,
          description: `Faktura ${purchase.merchant}`,
          accountId: company.accountByNumber(accountNumber).id,
          amount,
          amountGross: gross,
          vatTypeId: vat,
          currencyId: 1,
          amountGrossCurrency: gross,
          supplierId: supplier.id,
          customerId: null,
          departmentId: null,
          employeeId: null,
          invoiceNumber: null,
          termOfPayment: null,
          systemGenerated: false,
        }) satisfies TxPosting;
      const voucher = {
        id,
        version: 1,
        number: 50_000 + i,
        date: purchase.date,
        description: `Leverandørfaktura ${purchase.merchant}`,
        voucherTypeId: company.voucherTypeByName('Leverandørfaktura').id,
        externalVoucherNumber: null,
        vendorInvoiceNumber: String(10_000 + i),
        attachment: null,
        postings: [
          posting(1, purchase.account, purchase.gross, net, vatType.id),
          posting(2, SUPPLIER_ACCOUNT, -purchase.gross, -purchase.gross, null),
        ],
        inLedger: true,
      } as TxVoucher;
      return {
        id,
        invoiceNumber: String(10_000 + i),
        invoiceDate: purchase.date,
        supplierId: supplier.id,
        amount: purchase.gross,
        voucher,
      };
    });
  cache.set(company, invoices);
  return invoices;
}

/** GET /supplierInvoice: the seeded history's invoices dated in [invoiceDateFrom, invoiceDateTo). */
export function registerSupplierInvoiceRoutes(router: Router): void {
  router.get('/supplierInvoice', (req, res) => {
    const range = dateRangeOf(req, res, 'invoiceDateFrom', 'invoiceDateTo');
    if (!range) return;
    const { company, serializer } = callOf(res);
    const invoices = supplierInvoicesOf(company).filter(
      (invoice) => invoice.invoiceDate >= range.from && invoice.invoiceDate < range.to,
    );
    sendList(
      req,
      res,
      invoices.length,
      (i) => serializer.supplierInvoice(invoices[i]),
      `supplierInvoice:${company.id}:${range.from}:${range.to}`,
    );
  });
}
