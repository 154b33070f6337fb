import type { AccountRules, BookingLine } from '@app/domain';
import { ProviderError } from '@app/domain';
import { asArray, asObject, asString, Json } from '../shared/json';

/**
 * The VAT type to put on a line: the one whose number is the line's standard (SAF-T) VAT code in the
 * company's own `/ledger/vatType` list. Tripletex numbers its VAT types by the standard codes, while
 * ids differ per company and names and list order are no contract; so the number alone decides.
 */
export function vatTypeForLine(vatTypes: readonly Json[], line: BookingLine): Json {
  const code = line.vatCode;
  const vatType = code === null ? undefined : vatTypes.find((v) => asString(v.number) === code);
  if (!vatType) {
    throw new ProviderError(
      'tripletex',
      'unknown_vat_rate',
      code === null
        ? `no VAT code for ${line.vatRate} % under this VAT treatment`
        : `Tripletex has no VAT type number ${code} (${line.vatRate} %) in this company`,
    );
  }
  return vatType;
}

const LEDGER_TYPES: Readonly<Record<string, AccountRules['ledgerType']>> = {
  GENERAL: 'general',
  CUSTOMER: 'customer',
  VENDOR: 'supplier',
  EMPLOYEE: 'employee',
  ASSET: 'asset',
};

/**
 * An account's rules as Tripletex states them: `vatLocked` with its `vatType` (by number),
 * `legalVatTypes` (numbers; an empty list restricts nothing), `ledgerType`, `requiresDepartment`,
 * `requiresProject`, `isInactive`.
 */
export function accountRulesOf(account: Json): AccountRules {
  const vatTypeNumber = account.vatType ? asString(asObject(account.vatType).number) : '';
  const legal = Array.isArray(account.legalVatTypes)
    ? asArray(account.legalVatTypes)
        .map((v) => asString(asObject(v).number))
        .filter((n) => n !== '')
    : [];
  return {
    lockedVatCode: account.vatLocked === true && vatTypeNumber !== '' ? vatTypeNumber : null,
    legalVatCodes: legal.length > 0 ? legal : null,
    ledgerType: LEDGER_TYPES[asString(account.ledgerType)] ?? 'general',
    requiresDepartment: account.requiresDepartment === true,
    requiresProject: account.requiresProject === true,
    inactive: account.isInactive === true,
  };
}
