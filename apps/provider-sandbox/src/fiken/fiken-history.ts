import { SUPPLIER_ACCOUNT, vatCode } from '../seed/chart';
import { purchaseHistory } from '../seed/history';
import { splitGross } from '../shared/money';
import type { FikenCompany } from './fiken-company';
import type { FikenPurchase } from './fiken-model';

/** The history's own random stream, apart from the ledger's and the invoices'. */
const HISTORY_STREAM = 73;

const VAT_TYPE_OF_CODE: Record<string, string> = { '0': 'NONE', '1': 'HIGH', '11': 'MEDIUM', '13': 'LOW' };

const cache = new WeakMap<FikenCompany, FikenPurchase[]>();

/**
 * The company's purchases of the last year (seed/history.ts), oldest first: supplier invoices as
 * `supplier` purchases, card purchases as `cash_purchase`s named by their statement descriptor. They
 * are listed by GET /purchases before the purchases booked through the API.
 */
export function historyPurchasesOf(company: FikenCompany): FikenPurchase[] {
  const cached = cache.get(company);
  if (cached) return cached;
  const { seed, endDate } = company.ledger;
  const purchases = purchaseHistory(seed, HISTORY_STREAM, company.index, endDate).map((purchase, i): FikenPurchase => {
    const supplier =
      purchase.kind === 'invoice' ? company.suppliers.find((contact) => contact.name === purchase.merchant) : undefined;
    const { net, vat } = splitGross(purchase.gross, vatCode(purchase.vat).percentage);
    const id = 8_000_000 + company.index * 10_000 + i + 1;
    return {
      purchaseId: id,
      transactionId: id,
      identifier: purchase.kind === 'invoice' ? `F-${10_000 + i}` : undefined,
      date: purchase.date,
      dueDate: purchase.date,
      kind: supplier ? 'supplier' : 'cash_purchase',
      paid: true,
      lines: [
        {
          description: purchase.merchant,
          netPrice: net,
          vat,
          account: String(purchase.account),
          vatType: VAT_TYPE_OF_CODE[purchase.vat] ?? 'HIGH',
        },
      ],
      supplierId: supplier?.contactId,
      currency: 'NOK',
      paymentAccount: supplier ? String(SUPPLIER_ACCOUNT) : '1920:10001',
      paymentDate: purchase.date,
      purchaseAttachments: [],
      journalEntry: {
        journalEntryId: id,
        journalEntryNumber: 60_000 + i,
        transactionId: id,
        date: purchase.date,
        description: purchase.merchant,
        lines: [],
        attachments: [],
      },
      createdAt: `${purchase.date}T12:00:00.000Z`,
    };
  });
  cache.set(company, purchases);
  return purchases;
}
