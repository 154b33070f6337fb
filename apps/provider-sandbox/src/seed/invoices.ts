import { addDays, toEpochDay } from '../shared/dates';
import { splitGross } from '../shared/money';
import { Random } from '../shared/random';

/** Seeded customer invoices; like the ledger, invoice `i` is a pure function of its keys. */

export interface SeedInvoice {
  index: number;
  invoiceNumber: number;
  issueDate: string;
  dueDate: string;
  customer: number;
  gross: number;
  net: number;
  vat: number;
  /** Still unpaid, in øre (0 when settled). */
  outstanding: number;
  kid: string;
  /** The invoice's currency; amounts above are NOK, the `inCurrency` ones in this currency (cents). */
  currency: string;
  inCurrency: { gross: number; net: number; vat: number; outstanding: number };
}

export interface InvoiceShape {
  seed: number;
  stream: number;
  company: number;
  count: number;
  /** Invoices are issued over the 120 days before this date. */
  endDate: string;
}

const INVOICE_DAYS = 120;
/** Every eighth invoice is in euro, at this many NOK per EUR. */
const EUR_RATE = 11.5;

export function seedInvoice(shape: InvoiceShape, index: number): SeedInvoice {
  const random = Random.of(shape.seed, shape.stream, shape.company, index);
  const start = toEpochDay(shape.endDate) - INVOICE_DAYS;
  const issueDate = addDays('1970-01-01', start + Math.floor((index * INVOICE_DAYS) / Math.max(shape.count, 1)));
  const dueDate = addDays(issueDate, random.pick([10, 14, 14, 30]));
  const gross = random.amountOre(1_000, 60_000);
  const { net, vat } = splitGross(gross, 25);
  const settlement = random.next();
  const dueBeforeEnd = dueDate < shape.endDate;
  let outstanding: number;
  if (dueBeforeEnd) {
    outstanding = settlement < 0.55 ? 0 : settlement < 0.65 ? Math.round(gross / 2) : gross;
  } else {
    outstanding = settlement < 0.2 ? 0 : gross;
  }
  const invoiceNumber = 10_001 + index;
  const currency = index % 8 === 5 ? 'EUR' : 'NOK';
  const inCurrency = (nok: number): number => (currency === 'NOK' ? nok : Math.round(nok / EUR_RATE));
  return {
    index,
    invoiceNumber,
    issueDate,
    dueDate,
    customer: random.int(0, 9),
    gross,
    net,
    vat,
    outstanding,
    kid: `${invoiceNumber}${String(shape.company).padStart(4, '0')}`,
    currency,
    inCurrency: {
      gross: inCurrency(gross),
      net: inCurrency(gross) - inCurrency(vat),
      vat: inCurrency(vat),
      outstanding: inCurrency(outstanding),
    },
  };
}
