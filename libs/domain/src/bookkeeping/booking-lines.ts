import type { BookingLine } from '../ports/accounting-provider.port';
import type { ExpenseDetails } from '../proposal/expense-details';
import { vatRateHundredths } from '../values/vat-rate';
import { purchaseVatCode } from './bookkeeping';

/**
 * The lines to book for a proposal: each line's account, VAT code (from its rate and the
 * proposal's VAT treatment) and gross amount, in the proposal's currency and in NOK. A foreign
 * amount's NOK total (`amountNok`) is shared over the lines in proportion to their amounts, the øre
 * left by rounding going to the lines with the largest remainders, so the NOK lines add up exactly.
 * A line whose rate has no code under the treatment gets `vatCode: null`, which the provider
 * refuses (`unknown_vat_rate`); a stored proposal was validated against that at submission.
 */
export function bookingLinesOf(details: ExpenseDetails): BookingLine[] {
  const total = details.amount;
  const totalNok = details.amountNok ?? details.amount;
  const shares = details.lines.map((line) => {
    const exact = (BigInt(line.amount) * BigInt(totalNok)) / BigInt(total);
    const remainder = (BigInt(line.amount) * BigInt(totalNok)) % BigInt(total);
    return { floor: Number(exact), remainder };
  });
  let left = totalNok - shares.reduce((sum, share) => sum + share.floor, 0);
  const order = shares
    .map((share, index) => ({ index, remainder: share.remainder }))
    .sort((a, b) => (a.remainder === b.remainder ? a.index - b.index : a.remainder > b.remainder ? -1 : 1));
  const nok = shares.map((share) => share.floor);
  for (const { index } of order) {
    if (left <= 0) break;
    nok[index] += 1;
    left -= 1;
  }
  return details.lines.map((line, index) => {
    const vatCode = purchaseVatCode(vatRateHundredths(line.vatRate), details.vatTreatment);
    return {
      accountCode: line.accountCode,
      vatRate: line.vatRate,
      vatCode,
      grossAmount: line.amount,
      grossAmountNok: nok[index],
      description: line.description,
    };
  });
}
