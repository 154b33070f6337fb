import { addDays } from '../shared/dates';
import { Random } from '../shared/random';

/**
 * A year of a seeded company's purchases, for the service's history import to learn from:
 * recurring suppliers with varying amounts, card purchases as card statements write them, and a
 * few odd ones. Deterministic in (seed, stream, company): the same company shows the same year.
 *
 * - `invoice`: a supplier invoice (Tripletex: GET /supplierInvoice; Fiken: a `supplier` purchase),
 *   the supplier being the company's seeded supplier of that name;
 * - `card`: a card purchase without a supplier, named by its statement descriptor (Fiken: a
 *   `cash_purchase`; the Tripletex sandbox keeps its card purchases in the seeded ledger).
 */
export interface HistoryPurchase {
  /** Position in the company's history, oldest first. */
  readonly index: number;
  readonly date: string;
  readonly kind: 'invoice' | 'card';
  /** The supplier's name (invoice) or the card statement's descriptor (card). */
  readonly merchant: string;
  readonly account: number;
  /** VAT code number (chart.ts VAT_CODES). */
  readonly vat: string;
  /** Gross øre. */
  readonly gross: number;
}

interface Recurring {
  readonly kind: 'invoice' | 'card';
  /** One name, or descriptor variants (a statement's reference codes change). */
  readonly names: readonly string[];
  readonly account: number | readonly number[];
  readonly vat: string | readonly string[];
  /** Kroner: a constant price, or [min, max]. */
  readonly kroner: number | readonly [number, number];
  /** Days between purchases (about). */
  readonly every: number;
  /** At most this many in the year. */
  readonly times?: number;
}

const RECURRING: readonly Recurring[] = [
  { kind: 'invoice', names: ['Telenor Norge AS'], account: 6900, vat: '1', kroner: [549, 899], every: 30 },
  { kind: 'invoice', names: ['Fjordkraft AS'], account: 6340, vat: '1', kroner: [700, 3_400], every: 30 },
  { kind: 'invoice', names: ['Kontorleie Eiendom AS'], account: 6300, vat: '0', kroner: 18_500, every: 30 },
  { kind: 'invoice', names: ['Engros Grossisten AS'], account: 4300, vat: '1', kroner: [4_000, 25_000], every: 30 },
  { kind: 'invoice', names: ['Staples Norge AS'], account: 6800, vat: '1', kroner: [300, 1_500], every: 60 },
  { kind: 'invoice', names: ['Finn.no AS'], account: 7320, vat: '1', kroner: 1_990, every: 91 },
  // Booked to two accounts half and half: no account dominates, so no suggestion.
  {
    kind: 'invoice',
    names: ['Clas Ohlson AS'],
    account: [6800, 6540],
    vat: '1',
    kroner: [200, 2_500],
    every: 90,
  },
  // Five to furniture, one to office supplies: 6540 dominates.
  {
    kind: 'invoice',
    names: ['Elkjøp Nordic AS'],
    account: [6540, 6540, 6800, 6540, 6540, 6540],
    vat: '1',
    kroner: [1_500, 9_000],
    every: 60,
  },
  {
    kind: 'card',
    names: ['SPOTIFY AB *P2B9C1X', 'SPOTIFY AB *Q7Z3M1K', 'Spotify AB'],
    account: 6800,
    vat: '1',
    kroner: 119,
    every: 30,
  },
  {
    kind: 'card',
    names: ['UBER *TRIP 7XK2', 'UBER *TRIP HELP.UBER.COM', 'UBER *TRIP 4QW9'],
    account: 7140,
    vat: '13',
    kroner: [150, 450],
    every: 40,
  },
  {
    kind: 'card',
    names: ['UBER *EATS 2QX9', 'UBER *EATS 8LM3'],
    account: 5915,
    vat: '11',
    kroner: [180, 420],
    every: 60,
  },
  {
    kind: 'card',
    names: ['VIPPS*Kaffebrenneriet', 'Kaffebrenneriet AS'],
    account: 5915,
    vat: '11',
    kroner: [60, 240],
    every: 21,
  },
  { kind: 'card', names: ['Telia Norge AS'], account: 6900, vat: '1', kroner: 399, every: 30 },
];

/** One-offs: a purchase seen once says nothing about the next, so none of these is a suggestion. */
const ODD_ONES: readonly Omit<HistoryPurchase, 'index' | 'date'>[] = [
  { kind: 'invoice', merchant: 'IKEA AS', account: 6540, vat: '1', gross: 12_490_00 },
  { kind: 'card', merchant: 'SQ *LOFOTEN FISKERESTAURANT', account: 7350, vat: '0', gross: 2_870_00 },
  { kind: 'card', merchant: 'PAYPAL *ADOBE SYSTEMS', account: 6800, vat: '1', gross: 2_388_00 },
];

/** The purchases dated in the 365 days up to `endDate` (inclusive), oldest first. */
export function purchaseHistory(seed: number, stream: number, company: number, endDate: string): HistoryPurchase[] {
  const start = addDays(endDate, -364);
  const purchases: Omit<HistoryPurchase, 'index'>[] = [];
  RECURRING.forEach((recurring, r) => {
    const random = Random.of(seed, stream, company, 10_000 + r);
    let day = random.int(0, Math.min(recurring.every, 60) - 1);
    for (let n = 0; day < 365 && (recurring.times === undefined || n < recurring.times); n++) {
      const accounts = typeof recurring.account === 'number' ? [recurring.account] : recurring.account;
      const vats = typeof recurring.vat === 'string' ? [recurring.vat] : recurring.vat;
      const kroner = recurring.kroner;
      const gross = typeof kroner === 'number' ? kroner * 100 : random.int(kroner[0] * 100, kroner[1] * 100);
      purchases.push({
        date: addDays(start, day),
        kind: recurring.kind,
        merchant: recurring.names[n % recurring.names.length],
        account: accounts[n % accounts.length],
        vat: vats[n % vats.length],
        gross,
      });
      day += recurring.every + random.int(-2, 2);
    }
  });
  const odd = Random.of(seed, stream, company, 19_999);
  for (const one of ODD_ONES) purchases.push({ ...one, date: addDays(start, odd.int(0, 364)) });
  return purchases
    .sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : a.merchant < b.merchant ? -1 : 1))
    .map((purchase, index) => ({ ...purchase, index }));
}
