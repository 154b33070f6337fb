import { CHART, VAT_CODES, type ChartAccount, type VatCode } from '../seed/chart';

/**
 * What a Tripletex company's chart holds beyond the chart both sandboxes share: the VAT codes for raw
 * fish and for services bought from abroad (reverse charge), the company card's and the employees'
 * accounts, and the rules Tripletex keeps per account (`vatLocked`, `legalVatTypes`, `ledgerType`,
 * `requiresDepartment`, `isInactive`).
 */

export type TxLedgerType = 'GENERAL' | 'CUSTOMER' | 'VENDOR' | 'EMPLOYEE' | 'ASSET';

/** A VAT code as Tripletex books it; `reverse`: VAT computed on the amount and posted both ways. */
export interface TxVatCode extends Omit<VatCode, 'direction'> {
  direction: VatCode['direction'] | 'reverse';
}

export const TRIPLETEX_EXTRA_VAT_CODES: readonly TxVatCode[] = [
  { number: '12', name: 'Fradrag inngående avgift, råfisk', percentage: 11.11, direction: 'input' },
  {
    number: '86',
    name: 'Tjenester kjøpt fra utlandet med fradrag for inngående avgift, høy sats',
    percentage: 25,
    direction: 'reverse',
  },
  {
    number: '88',
    name: 'Tjenester kjøpt fra utlandet med fradrag for inngående avgift, lav sats',
    percentage: 12,
    direction: 'reverse',
  },
];

export interface TxChartAccount extends ChartAccount {
  isInactive?: boolean;
}

export const COMPANY_CARD_ACCOUNT = 1930;
export const EMPLOYEE_DEBT_ACCOUNT = 2910;
/** VAT-locked: rent of premises carries no VAT (exempt), as the seeded rent is booked. */
export const VAT_LOCKED_ACCOUNT = 6300;
/** Marketing is followed per department: a posting on it must name one. */
export const DEPARTMENT_ACCOUNT = 7320;
export const INACTIVE_ACCOUNT = 6100;

export const TRIPLETEX_EXTRA_ACCOUNTS: readonly TxChartAccount[] = [
  { number: COMPANY_CARD_ACCOUNT, name: 'Firmakort', type: 'ASSETS', isBankAccount: true },
  { number: EMPLOYEE_DEBT_ACCOUNT, name: 'Gjeld til ansatte og eiere', type: 'LIABILITIES' },
  {
    number: INACTIVE_ACCOUNT,
    name: 'Frakt, toll og spedisjon',
    type: 'OPERATING_EXPENSES',
    vat: '1',
    isInactive: true,
  },
];

/** The shared chart and the Tripletex-only accounts (an account the shared chart gained is not doubled). */
export const TRIPLETEX_CHART: readonly TxChartAccount[] = [
  ...CHART,
  ...TRIPLETEX_EXTRA_ACCOUNTS.filter((extra) => !CHART.some((account) => account.number === extra.number)),
];

export const TRIPLETEX_VAT_CODES: readonly TxVatCode[] = [
  ...VAT_CODES,
  ...TRIPLETEX_EXTRA_VAT_CODES.filter((extra) => !VAT_CODES.some((code) => code.number === extra.number)),
];

/** The VAT codes a purchase may carry (input, none, reverse charge); a sale's (output, none). */
const PURCHASE_CODES = ['0', '1', '11', '12', '13', '86', '88'];
const SALES_CODES = ['0', '3', '31', '33', '5', '6'];

export interface TxAccountRules {
  vatLocked: boolean;
  /** VAT code numbers the account takes; null: any. */
  legalVatCodes: readonly string[] | null;
  ledgerType: TxLedgerType;
  requiresDepartment: boolean;
  requiresProject: boolean;
  isInactive: boolean;
}

export function tripletexRulesOf(account: TxChartAccount): TxAccountRules {
  const ledgerType: TxLedgerType =
    account.number === 2400
      ? 'VENDOR'
      : account.number === 1500
        ? 'CUSTOMER'
        : account.number === EMPLOYEE_DEBT_ACCOUNT
          ? 'EMPLOYEE'
          : 'GENERAL';
  const legalVatCodes =
    account.number === VAT_LOCKED_ACCOUNT
      ? [account.vat ?? '0']
      : account.type === 'OPERATING_EXPENSES'
        ? PURCHASE_CODES
        : account.type === 'OPERATING_REVENUES'
          ? SALES_CODES
          : null;
  return {
    vatLocked: account.number === VAT_LOCKED_ACCOUNT,
    legalVatCodes,
    ledgerType,
    requiresDepartment: account.number === DEPARTMENT_ACCOUNT,
    requiresProject: false,
    isInactive: account.isInactive === true,
  };
}

/**
 * The voucher types a new Tripletex company has, in Tripletex's order (`GET /ledger/voucherType` on
 * a fresh test company). None of them is "a receipt": Tripletex books a paid receipt under no type
 * or one the company adds itself; employees' outlays have "Ansattutlegg", supplier invoices
 * "Leverandørfaktura".
 */
export const TRIPLETEX_VOUCHER_TYPES: readonly string[] = [
  'Utgående faktura',
  'Leverandørfaktura',
  'Purring',
  'Betaling',
  'Lønnsbilag',
  'Terminoppgave',
  'Mva-melding',
  'Betaling med KID-nummer',
  'Remittering',
  'Bankavstemming',
  'Reiseregning',
  'Ansattutlegg',
  'Åpningsbalanse',
  'Tolldeklarasjon',
  'Pensjon',
  'Refusjon av sykepenger',
  'Øreavrunding',
];

/** The one type a new voucher may not have: outgoing invoices are made through the invoice endpoints. */
export const OUTGOING_INVOICE_VOUCHER_TYPE = 'Utgående faktura';
