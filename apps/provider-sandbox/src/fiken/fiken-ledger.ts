import { seedInvoice } from '../seed/invoices';
import { ledgerEntry } from '../seed/ledger';
import { Random } from '../shared/random';
import type { FikenCompany } from './fiken-company';
import type { FikenAttachment, FikenJournalEntry } from './fiken-model';

/** A deterministic UUID (v4 layout) from integer keys. */
function keyedUuid(...keys: number[]): string {
  const random = Random.of(...keys);
  let hex = '';
  for (let i = 0; i < 4; i++)
    hex += Math.floor(random.next() * 4294967296)
      .toString(16)
      .padStart(8, '0');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

export function attachmentFor(apiBase: string, slug: string, identifier: string, fileName: string): FikenAttachment {
  return {
    identifier,
    downloadUrl: `${apiBase}/companies/${slug}/attachments/${identifier}/${encodeURIComponent(fileName)}`,
    downloadUrlWithFikenNormalUserCredentials: `https://fiken.no/filer/${identifier}/${encodeURIComponent(fileName)}`,
    type: 'invoice',
  };
}

/** Seeded journal entry `index` of a company, generated on demand. */
export function seededJournalEntry(company: FikenCompany, index: number, apiBase: string): FikenJournalEntry {
  const entry = ledgerEntry(company.ledger, index);
  const id = company.journalEntryId(index);
  return {
    journalEntryId: id,
    journalEntryNumber: index + 1,
    transactionId: id + 1_000_000_000_000,
    date: entry.date,
    description: entry.description,
    lines: entry.lines.map((line) => ({
      amount: line.amount,
      account: company.code(line.account, line.supplier, line.customer),
      ...(line.vat ? { vatCode: line.vat } : {}),
    })),
    attachments: entry.hasAttachment
      ? [
          attachmentFor(
            apiBase,
            company.slug,
            keyedUuid(company.ledger.seed, company.index, index),
            `bilag-${index + 1}.pdf`,
          ),
        ]
      : [],
  };
}

export function seededFikenInvoice(company: FikenCompany, index: number, apiBase: string): Record<string, unknown> {
  const invoice = seedInvoice(company.invoiceShape, index);
  const customer = company.customers[invoice.customer];
  const settled = invoice.outstanding === 0;
  const id = company.invoiceId(index);
  return {
    invoiceId: id,
    createdDate: invoice.issueDate,
    lastModifiedDate: invoice.issueDate,
    invoiceNumber: invoice.invoiceNumber,
    kid: invoice.kid,
    issueDate: invoice.issueDate,
    dueDate: invoice.dueDate,
    originalDueDate: invoice.dueDate,
    net: invoice.inCurrency.net,
    vat: invoice.inCurrency.vat,
    gross: invoice.inCurrency.gross,
    netInNok: invoice.net,
    vatInNok: invoice.vat,
    grossInNok: invoice.gross,
    cash: false,
    invoiceText: `Faktura ${invoice.invoiceNumber}`,
    yourReference: '',
    ourReference: '',
    orderReference: '',
    currency: invoice.currency,
    bankAccountNumber: '15030012345',
    sentManually: false,
    customer: {
      contactId: customer.contactId,
      name: customer.name,
      organizationNumber: customer.organizationNumber,
      email: customer.email,
      customerNumber: customer.customerNumber,
      customer: true,
      supplier: false,
      inactive: false,
    },
    sale: {
      saleId: id + 500_000,
      saleNumber: String(invoice.invoiceNumber),
      date: invoice.issueDate,
      kind: 'external_invoice',
      netAmount: invoice.net,
      vatAmount: invoice.vat,
      totalPaid: invoice.gross - invoice.outstanding,
      outstandingBalance: invoice.outstanding,
      ...(invoice.currency === 'NOK' ? {} : { outstandingBalanceInCurrency: invoice.inCurrency.outstanding }),
      settled,
      ...(settled ? { settledDate: invoice.dueDate } : {}),
      currency: invoice.currency,
    },
    attachments: [
      attachmentFor(
        apiBase,
        company.slug,
        keyedUuid(company.invoiceShape.seed, company.index, 1_000_000 + index),
        `faktura-${invoice.invoiceNumber}.pdf`,
      ),
    ],
  };
}
