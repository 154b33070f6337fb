import { asObject, asString, Json } from '../shared/json';
import { percentToHundredths } from '../shared/money';

/** Tripletex's standard numbers of the deductible input VAT codes (high, medium, raw fish, low). */
const INPUT_VAT_NUMBERS = new Set(['1', '11', '12', '13', '14', '15']);
const INPUT_VAT_NAME = /inng[aå]ende|fradrag|input/i;

/**
 * The VAT type to put on an expense line for a rate. VAT type ids differ per company, so they are
 * chosen from the company's own `/ledger/vatType` list: the account's default VAT type when it has
 * the rate, otherwise an input (deductible) VAT type with the rate, otherwise any with the rate.
 * Rate 0 prefers VAT code 0 ("no VAT treatment").
 */
export function chooseExpenseVatType(
  vatTypes: Json[],
  rateHundredths: number,
  accountVatTypeId: string | null,
): Json | undefined {
  const withRate = vatTypes.filter((v) => percentToHundredths(v.percentage) === rateHundredths);
  if (withRate.length === 0) {
    return undefined;
  }
  const accountDefault = withRate.find((v) => accountVatTypeId !== null && asString(v.id) === accountVatTypeId);
  if (accountDefault) {
    return accountDefault;
  }
  if (rateHundredths === 0) {
    return withRate.find((v) => asString(v.number) === '0') ?? withRate[0];
  }
  return (
    withRate.find((v) => INPUT_VAT_NUMBERS.has(asString(v.number))) ??
    withRate.find((v) => INPUT_VAT_NAME.test(asString(asObject(v).name))) ??
    withRate[0]
  );
}
