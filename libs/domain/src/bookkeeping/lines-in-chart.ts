import { assertInChart, type CompanyContext } from '../context/company-context';
import type { ExpenseDetails } from '../proposal/expense-details';

/**
 * Checks a proposal's accounts and VAT rates against the company's chart (`unknown_account_code`,
 * `unknown_vat_rate`, 422), line by line, naming the line's field (`lines[1].accountCode`) when
 * there are several. A rate is checked only where it becomes a Norwegian VAT code: the rate of a purchase under
 * `foreign_no_deduction` is the foreign VAT, recorded but booked under code 0.
 */
export function assertLinesInChart(context: CompanyContext, details: ExpenseDetails): void {
  const checkRate = details.vatTreatment !== 'foreign_no_deduction';
  details.lines.forEach((line, index) => {
    const at = details.lines.length > 1 ? `lines[${index}].` : '';
    assertInChart(
      context,
      { accountCode: line.accountCode, ...(checkRate && { vatRate: line.vatRate }) },
      { accountCode: `${at}accountCode`, vatRate: `${at}vatRate` },
    );
  });
}
