import { invalidField } from './field-errors';

/** A ledger account number from the company's chart: 4 to 6 digits ("6540", "1920"). */
export type AccountCode = string;

export function parseAccountCode(text: unknown, field = 'accountCode'): AccountCode {
  if (typeof text !== 'string' || !/^\d{4,6}$/.test(text)) {
    invalidField(field, 'must be an account number of 4 to 6 digits, such as "6540"');
  }
  return text;
}
