import { invalidField } from './field-errors';

/** An ISO 4217 alphabetic code: three uppercase letters ("NOK", "EUR"). */
export type CurrencyCode = string;

export function parseCurrency(text: unknown, field = 'currency'): CurrencyCode {
  if (typeof text !== 'string' || !/^[A-Z]{3}$/.test(text)) {
    invalidField(field, 'must be an ISO 4217 code of three uppercase letters, such as "NOK"');
  }
  return text;
}
