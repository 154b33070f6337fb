import { INPUT_VAT_ACCOUNT, OUTPUT_VAT_ACCOUNT } from '../seed/chart';
import { currencyById } from '../seed/currencies';
import { isIsoDate } from '../shared/dates';
import { kronerToOre } from '../shared/money';
import { OUTGOING_INVOICE_VOUCHER_TYPE } from './tripletex-chart';
import type { TripletexCompany } from './tripletex-company';
import type { ValidationMessage } from './tripletex-errors';
import type { TxAccount, TxPosting, TxVatType, TxVoucher } from './tripletex-model';

export type BookingResult =
  { ok: true; voucher: TxVoucher } | { ok: false; message: string; validationMessages: ValidationMessage[] };

type Json = Record<string, unknown>;

const NOK = currencyById(1);

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The id of a `{ "id": N }` reference, `undefined` when absent, `null` when malformed. */
function refId(value: unknown): number | undefined | null {
  if (value === undefined || value === null) return undefined;
  if (!isObject(value) || typeof value.id !== 'number' || !Number.isInteger(value.id)) return null;
  return value.id;
}

/**
 * Validates a `POST /ledger/voucher` body the way Tripletex does and builds the voucher: `row` ≥ 1
 * (row 0 is reserved for system-generated postings), known accounts and VAT types, gross amounts
 * summing to zero, and each account's rules (inactive, VAT lock, legal VAT types, the party its ledger
 * type asks for, a department). A VAT type on a posting splits its gross amount into net on the
 * account and VAT on 2710 (input) or 2700 (output), generated at row 0; a reverse-charge type (86, 88)
 * keeps the amount on the account and generates the VAT computed on it on both 2710 and 2700.
 */
export function buildVoucher(
  company: TripletexCompany,
  body: unknown,
  ids: { voucherId: number; number: number },
  inLedger: boolean,
): BookingResult {
  const problems: ValidationMessage[] = [];
  if (!isObject(body)) {
    return {
      ok: false,
      message: 'Validering feilet.',
      validationMessages: [{ field: null, message: 'Forventet et bilag (JSON-objekt).' }],
    };
  }
  if (!isIsoDate(body.date)) problems.push({ field: 'date', message: 'Kan ikke være null. Bruk formatet ÅÅÅÅ-MM-DD.' });
  const description = typeof body.description === 'string' ? body.description : '';
  const externalVoucherNumber = typeof body.externalVoucherNumber === 'string' ? body.externalVoucherNumber : null;
  if (externalVoucherNumber !== null && externalVoucherNumber.length > 70) {
    problems.push({ field: 'externalVoucherNumber', message: 'Kan ikke være lengre enn 70 tegn.' });
  }
  const voucherTypeId = refId(body.voucherType);
  const voucherType = typeof voucherTypeId === 'number' ? company.voucherType(voucherTypeId) : undefined;
  if (voucherTypeId === null || (voucherTypeId !== undefined && !voucherType)) {
    problems.push({ field: 'voucherType', message: 'Bilagstypen finnes ikke.' });
  } else if (voucherType?.name === OUTGOING_INVOICE_VOUCHER_TYPE) {
    problems.push({
      field: 'voucherType',
      message: 'Bilagstypen «Utgående faktura» kan ikke brukes på nye bilag. Bruk faktura-endepunktet.',
    });
  }
  const rawPostings = Array.isArray(body.postings) ? body.postings : [];
  if (rawPostings.length === 0) problems.push({ field: 'postings', message: 'Bilaget må ha minst én postering.' });

  const date = typeof body.date === 'string' ? body.date : '';
  const postings: TxPosting[] = [];
  let sum = 0;
  let sequence = 0;
  rawPostings.forEach((raw: unknown, i: number) => {
    const path = `postings[${i}]`;
    if (!isObject(raw)) {
      problems.push({ field: 'postings', message: 'Ugyldig postering.', path });
      return;
    }
    const row = typeof raw.row === 'number' ? raw.row : 0;
    if (!Number.isInteger(row) || row < 1) {
      problems.push({
        field: 'postings.row',
        message: 'Posteringer på rad 0 er systemgenererte og kan ikke opprettes eller endres. Bruk rad 1 eller høyere.',
        path: `${path}.row`,
      });
    }
    const accountId = refId(raw.account);
    const account = typeof accountId === 'number' ? company.account(accountId) : undefined;
    if (!account) {
      problems.push({
        field: 'postings.account',
        message: accountId === undefined ? 'Konto må oppgis.' : `Kontoen med id ${String(accountId)} finnes ikke.`,
        path: `${path}.account`,
      });
    }
    const vatTypeId = refId(raw.vatType);
    const vatType = typeof vatTypeId === 'number' ? company.vatType(vatTypeId) : undefined;
    if (vatTypeId !== undefined && !vatType) {
      problems.push({
        field: 'postings.vatType',
        message: `MVA-koden med id ${String(vatTypeId)} finnes ikke.`,
        path: `${path}.vatType`,
      });
    }
    const gross = kronerToOre(raw.amountGross);
    if (gross === undefined) {
      problems.push({ field: 'postings.amountGross', message: 'Bruttobeløp må oppgis.', path: `${path}.amountGross` });
    }
    const currencyId = refId(raw.currency);
    const currency =
      typeof currencyId === 'number' ? currencyById(currencyId) : currencyId === undefined ? NOK : undefined;
    if (!currency) {
      problems.push({
        field: 'postings.currency',
        message: `Valutaen med id ${String(currencyId)} finnes ikke.`,
        path: `${path}.currency`,
      });
    }
    const grossCurrency = raw.amountGrossCurrency === undefined ? gross : kronerToOre(raw.amountGrossCurrency);
    if (currency?.code === 'NOK' && gross !== undefined && grossCurrency !== gross) {
      problems.push({
        field: 'postings.amountGrossCurrency',
        message: 'Beløp i valuta må være lik beløp for NOK.',
        path: `${path}.amountGrossCurrency`,
      });
    }
    if (currency && currency.code !== 'NOK' && (grossCurrency === undefined || raw.amountGrossCurrency === undefined)) {
      problems.push({
        field: 'postings.amountGrossCurrency',
        message: `Beløp i valuta (${currency.code}) må oppgis.`,
        path: `${path}.amountGrossCurrency`,
      });
    }
    if (gross !== undefined && grossCurrency !== undefined && Math.sign(gross) !== Math.sign(grossCurrency)) {
      problems.push({
        field: 'postings.amountGrossCurrency',
        message: 'Beløp i valuta må ha samme fortegn som beløpet i NOK.',
        path: `${path}.amountGrossCurrency`,
      });
    }
    const refs: PartyRefs = {
      supplier: null,
      customer: null,
      department: null,
      employee: null,
    };
    const known: Record<keyof typeof refs, (id: number) => boolean> = {
      supplier: (id) => company.suppliers.some((s) => s.id === id),
      customer: (id) => company.customers.some((c) => c.id === id),
      department: (id) => company.departments.some((d) => d.id === id),
      employee: (id) => company.employees.some((e) => e.id === id),
    };
    for (const key of Object.keys(refs) as (keyof typeof refs)[]) {
      const id = refId(raw[key]);
      if (id === undefined) continue;
      if (id === null || !known[key](id)) {
        problems.push({ field: `postings.${key}`, message: `Objektet (${key}) finnes ikke.`, path: `${path}.${key}` });
      } else {
        refs[key] = id;
      }
    }
    const invoiceNumber = typeof raw.invoiceNumber === 'string' && raw.invoiceNumber !== '' ? raw.invoiceNumber : null;
    const termOfPayment = typeof raw.termOfPayment === 'string' && raw.termOfPayment !== '' ? raw.termOfPayment : null;
    if (termOfPayment !== null && !isIsoDate(termOfPayment)) {
      problems.push({
        field: 'postings.termOfPayment',
        message: 'Ugyldig forfallsdato. Bruk formatet ÅÅÅÅ-MM-DD.',
        path: `${path}.termOfPayment`,
      });
    }
    if (account) problems.push(...ruleViolations(account, vatType, refs, raw, path));
    if (!account || gross === undefined || !currency || grossCurrency === undefined) return;
    sum += gross;
    const lineDescription = typeof raw.description === 'string' ? raw.description : description;
    const base = {
      date,
      description: lineDescription,
      supplierId: refs.supplier,
      customerId: refs.customer,
      departmentId: refs.department,
      employeeId: refs.employee,
      currencyId: currency.id,
    };
    const vat = vatType ? vatOf(gross, vatType) : { net: gross, postings: [] };
    postings.push({
      ...base,
      id: ids.voucherId * 10 + sequence++,
      row,
      accountId: account.id,
      amount: vat.net,
      amountGross: gross,
      amountGrossCurrency: grossCurrency,
      vatTypeId: vatType?.id ?? null,
      invoiceNumber,
      termOfPayment,
      systemGenerated: false,
    });
    for (const generated of vat.postings) {
      postings.push({
        ...base,
        id: ids.voucherId * 10 + sequence++,
        row: 0,
        accountId: company.accountByNumber(generated.account).id,
        amount: generated.amount,
        amountGross: generated.amount,
        amountGrossCurrency: gross === 0 ? 0 : Math.round((generated.amount * grossCurrency) / gross),
        vatTypeId: null,
        invoiceNumber: null,
        termOfPayment: null,
        systemGenerated: true,
      });
    }
  });

  if (problems.length === 0 && sum !== 0) {
    problems.push({
      field: 'postings',
      message: `Bilaget er ikke i balanse. Summen av posteringene er ${(sum / 100).toFixed(2)}, men må være 0.`,
    });
  }
  if (problems.length > 0) return { ok: false, message: 'Validering feilet.', validationMessages: problems };
  return {
    ok: true,
    voucher: {
      id: ids.voucherId,
      version: 1,
      number: ids.number,
      date,
      description,
      voucherTypeId: voucherType?.id ?? null,
      externalVoucherNumber,
      vendorInvoiceNumber: typeof body.vendorInvoiceNumber === 'string' ? body.vendorInvoiceNumber : null,
      attachment: null,
      postings,
      inLedger,
    },
  };
}

type PartyRefs = Record<'supplier' | 'customer' | 'department' | 'employee', number | null>;

/** Where a posting breaks its account's rules, the messages Tripletex answers with. */
function ruleViolations(
  account: TxAccount,
  vatType: TxVatType | undefined,
  refs: PartyRefs,
  raw: Json,
  path: string,
): ValidationMessage[] {
  const problems: ValidationMessage[] = [];
  const { rules } = account;
  const code = vatType?.number ?? '0';
  if (rules.isInactive) {
    problems.push({
      field: 'postings.account',
      message: `Kontoen ${account.number} er inaktiv og kan ikke posteres på.`,
      path: `${path}.account`,
    });
  }
  if (rules.vatLocked && rules.legalVatCodes !== null && !rules.legalVatCodes.includes(code)) {
    problems.push({
      field: 'postings.vatType',
      message: `Kontoen ${account.number} er låst til mva-kode ${rules.legalVatCodes.join(', ')}.`,
      path: `${path}.vatType`,
    });
  } else if (rules.legalVatCodes !== null && !rules.legalVatCodes.includes(code)) {
    problems.push({
      field: 'postings.vatType',
      message: `Mva-kode ${code} er ikke tillatt på konto ${account.number}.`,
      path: `${path}.vatType`,
    });
  }
  const party = { VENDOR: 'supplier', CUSTOMER: 'customer', EMPLOYEE: 'employee' } as const;
  const partyName = { supplier: 'Leverandør', customer: 'Kunde', employee: 'Ansatt' } as const;
  if (rules.ledgerType in party) {
    const key = party[rules.ledgerType as keyof typeof party];
    if (refs[key] === null && raw[key] === undefined) {
      problems.push({
        field: `postings.${key}`,
        message: `${partyName[key]} må oppgis for posteringer på konto ${account.number}.`,
        path: `${path}.${key}`,
      });
    }
  }
  if (rules.requiresDepartment && refs.department === null && raw.department === undefined) {
    problems.push({
      field: 'postings.department',
      message: `Avdeling må oppgis for posteringer på konto ${account.number}.`,
      path: `${path}.department`,
    });
  }
  if (rules.requiresProject && raw.project === undefined) {
    problems.push({
      field: 'postings.project',
      message: `Prosjekt må oppgis for posteringer på konto ${account.number}.`,
      path: `${path}.project`,
    });
  }
  return problems;
}

/** `amount × factor / denominator` rounded half away from zero, in integers. */
function roundedRatio(amount: number, factor: number, denominator: number): number {
  const n = BigInt(Math.abs(amount)) * BigInt(factor);
  const d = BigInt(denominator);
  return Math.sign(amount) * Number((n * 2n + d) / (d * 2n));
}

/**
 * The net amount left on the account and the VAT postings a VAT type generates from a gross amount:
 * VAT of the gross for input and output types, VAT of the amount on both sides for a reverse charge.
 */
function vatOf(gross: number, vatType: TxVatType): { net: number; postings: { account: number; amount: number }[] } {
  const hundredths = Math.round(vatType.percentage * 100);
  if (hundredths === 0 || vatType.direction === 'none') return { net: gross, postings: [] };
  if (vatType.direction === 'reverse') {
    const vat = roundedRatio(gross, hundredths, 10_000);
    return {
      net: gross,
      postings: [
        { account: INPUT_VAT_ACCOUNT, amount: vat },
        { account: OUTPUT_VAT_ACCOUNT, amount: -vat },
      ],
    };
  }
  const vat = roundedRatio(gross, hundredths, 10_000 + hundredths);
  return {
    net: gross - vat,
    postings: [{ account: vatType.direction === 'output' ? OUTPUT_VAT_ACCOUNT : INPUT_VAT_ACCOUNT, amount: vat }],
  };
}
