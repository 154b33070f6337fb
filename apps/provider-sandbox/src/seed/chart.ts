/**
 * The seeded Norwegian chart of accounts (NS 4102 numbering) and VAT codes shared by both sandboxes.
 */

type AccountType =
  | 'ASSETS'
  | 'EQUITY'
  | 'LIABILITIES'
  | 'OPERATING_REVENUES'
  | 'OPERATING_EXPENSES'
  | 'INVESTMENT_INCOME'
  | 'COST_OF_CAPITAL';

/** A VAT code by its Norwegian standard number (the SAF-T / Sticos "mva-kode"). */
export interface VatCode {
  number: string;
  name: string;
  percentage: number;
  direction: 'input' | 'output' | 'none';
}

export const VAT_CODES: readonly VatCode[] = [
  { number: '0', name: 'Ingen avgiftsbehandling', percentage: 0, direction: 'none' },
  { number: '1', name: 'Fradrag inngående avgift, høy sats', percentage: 25, direction: 'input' },
  { number: '11', name: 'Fradrag inngående avgift, middels sats', percentage: 15, direction: 'input' },
  { number: '13', name: 'Fradrag inngående avgift, lav sats', percentage: 12, direction: 'input' },
  { number: '3', name: 'Utgående avgift, høy sats', percentage: 25, direction: 'output' },
  { number: '31', name: 'Utgående avgift, middels sats', percentage: 15, direction: 'output' },
  { number: '33', name: 'Utgående avgift, lav sats', percentage: 12, direction: 'output' },
  { number: '5', name: 'Ingen utgående avgift (innenfor mva-loven)', percentage: 0, direction: 'output' },
  { number: '6', name: 'Ingen utgående avgift (utenfor mva-loven)', percentage: 0, direction: 'none' },
];

export function vatCode(number: string): VatCode {
  const found = VAT_CODES.find((code) => code.number === number);
  if (!found) throw new Error(`Unknown VAT code ${number}`);
  return found;
}

export interface ChartAccount {
  number: number;
  name: string;
  type: AccountType;
  /** Default VAT code of the account, when it has one. */
  vat?: string;
  isBankAccount?: boolean;
}

export const INPUT_VAT_ACCOUNT = 2710;
export const OUTPUT_VAT_ACCOUNT = 2700;
export const BANK_ACCOUNT = 1920;
export const SUPPLIER_ACCOUNT = 2400;
export const CUSTOMER_ACCOUNT = 1500;
export const EQUITY_ACCOUNT = 2050;

export const CHART: readonly ChartAccount[] = [
  { number: 1200, name: 'Maskiner og anlegg', type: 'ASSETS' },
  { number: 1250, name: 'Inventar', type: 'ASSETS' },
  { number: 1500, name: 'Kundefordringer', type: 'ASSETS' },
  { number: 1579, name: 'Andre kortsiktige fordringer', type: 'ASSETS' },
  { number: 1920, name: 'Bankinnskudd', type: 'ASSETS', isBankAccount: true },
  { number: 1950, name: 'Bankinnskudd for skattetrekk', type: 'ASSETS', isBankAccount: true },
  { number: 2000, name: 'Aksjekapital', type: 'EQUITY' },
  { number: 2050, name: 'Annen egenkapital', type: 'EQUITY' },
  { number: 2400, name: 'Leverandørgjeld', type: 'LIABILITIES' },
  { number: 2600, name: 'Forskuddstrekk', type: 'LIABILITIES' },
  { number: 2700, name: 'Utgående merverdiavgift', type: 'LIABILITIES' },
  { number: 2710, name: 'Inngående merverdiavgift', type: 'LIABILITIES' },
  { number: 2740, name: 'Oppgjørskonto merverdiavgift', type: 'LIABILITIES' },
  { number: 2780, name: 'Påløpt arbeidsgiveravgift', type: 'LIABILITIES' },
  { number: 2930, name: 'Skyldig lønn', type: 'LIABILITIES' },
  { number: 3000, name: 'Salgsinntekt, avgiftspliktig', type: 'OPERATING_REVENUES', vat: '3' },
  { number: 3100, name: 'Salgsinntekt, avgiftsfri', type: 'OPERATING_REVENUES', vat: '5' },
  { number: 4000, name: 'Innkjøp av råvarer og halvfabrikata', type: 'OPERATING_EXPENSES', vat: '1' },
  { number: 4300, name: 'Innkjøp av varer for videresalg', type: 'OPERATING_EXPENSES', vat: '1' },
  { number: 5000, name: 'Lønn til ansatte', type: 'OPERATING_EXPENSES' },
  { number: 5400, name: 'Arbeidsgiveravgift', type: 'OPERATING_EXPENSES' },
  { number: 5915, name: 'Mat og drikke til ansatte', type: 'OPERATING_EXPENSES', vat: '11' },
  { number: 6300, name: 'Leie lokale', type: 'OPERATING_EXPENSES', vat: '0' },
  { number: 6340, name: 'Lys, varme', type: 'OPERATING_EXPENSES', vat: '1' },
  { number: 6540, name: 'Inventar', type: 'OPERATING_EXPENSES', vat: '1' },
  { number: 6550, name: 'Driftsmaterialer', type: 'OPERATING_EXPENSES', vat: '1' },
  { number: 6800, name: 'Kontorrekvisita', type: 'OPERATING_EXPENSES', vat: '1' },
  { number: 6860, name: 'Møte, kurs, oppdatering o.l.', type: 'OPERATING_EXPENSES', vat: '1' },
  { number: 6900, name: 'Telefon', type: 'OPERATING_EXPENSES', vat: '1' },
  { number: 7140, name: 'Reisekostnad, ikke oppgavepliktig', type: 'OPERATING_EXPENSES', vat: '13' },
  { number: 7320, name: 'Reklamekostnad', type: 'OPERATING_EXPENSES', vat: '1' },
  { number: 7350, name: 'Representasjon, fradragsberettiget', type: 'OPERATING_EXPENSES', vat: '0' },
  { number: 7770, name: 'Bank- og kortgebyrer', type: 'OPERATING_EXPENSES', vat: '0' },
  { number: 7790, name: 'Annen kostnad, fradragsberettiget', type: 'OPERATING_EXPENSES', vat: '1' },
  { number: 8040, name: 'Renteinntekt', type: 'INVESTMENT_INCOME' },
  { number: 8150, name: 'Rentekostnad', type: 'COST_OF_CAPITAL' },
];

export function chartAccount(number: number): ChartAccount {
  const found = CHART.find((account) => account.number === number);
  if (!found) throw new Error(`Account ${number} is not in the seeded chart`);
  return found;
}

/** Expense accounts the generator books receipts on, with what a receipt there typically says. */
export const EXPENSES: readonly { account: number; descriptions: readonly string[]; min: number; max: number }[] = [
  {
    account: 6800,
    descriptions: ['Kontorrekvisita Clas Ohlson', 'Skriverpapir Staples', 'Tonerkassetter'],
    min: 80,
    max: 4_000,
  },
  { account: 6540, descriptions: ['Kontorstoler IKEA', 'Skjerm Elkjøp', 'Hyller Jysk'], min: 500, max: 25_000 },
  { account: 7140, descriptions: ['Flybillett Oslo–Bergen', 'Togbillett Vy', 'Taxi Oslo Taxi'], min: 150, max: 6_000 },
  { account: 7350, descriptions: ['Kundemiddag Lofoten Fiskerestaurant', 'Lunsj med kunde'], min: 300, max: 8_000 },
  { account: 5915, descriptions: ['Frukt og kaffe Rema 1000', 'Fredagspizza Peppes'], min: 100, max: 3_000 },
  { account: 6300, descriptions: ['Husleie kontor', 'Leie lagerlokale'], min: 8_000, max: 45_000 },
  { account: 6340, descriptions: ['Strøm Fjordkraft', 'Fjernvarme Hafslund'], min: 600, max: 9_000 },
  { account: 6900, descriptions: ['Mobilabonnement Telenor', 'Bredbånd Telia'], min: 200, max: 3_500 },
  { account: 6860, descriptions: ['Kurs regnskap Kursagenten', 'Konferansebillett'], min: 900, max: 12_000 },
  { account: 7320, descriptions: ['Annonser Finn.no', 'Trykksaker Flyer'], min: 400, max: 15_000 },
  { account: 7770, descriptions: ['Kortgebyr DNB', 'Gebyr betalingsterminal'], min: 20, max: 600 },
  { account: 4300, descriptions: ['Varekjøp Engros AS', 'Varekjøp Grossisten'], min: 1_000, max: 60_000 },
];
