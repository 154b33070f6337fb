import type { AccountingDate } from '../values/accounting-date';
import type { ConfidenceAssessment } from './confidence-engine';
import { routeFor } from './route';

/**
 * A proposal dated before the company's open period is capped here, in the "review required" band:
 * it would land in books already closed (annual accounts done, VAT reported), where the provider
 * may refuse it or it changes figures already reported, so a person decides — whatever the
 * patterns say.
 */
export const OUTSIDE_OPEN_PERIOD_MAX_SCORE = 0.5;

/**
 * The assessment of a proposal dated `date`, the open period starting on `openPeriodStart`
 * (openPeriodStartOf): before it, the score is capped at OUTSIDE_OPEN_PERIOD_MAX_SCORE and a reason
 * says why, so it is stored PROPOSED and never auto-approved. Otherwise it is returned as it is.
 */
export function holdOutsideOpenPeriod(
  assessment: ConfidenceAssessment,
  date: AccountingDate,
  openPeriodStart: AccountingDate,
): ConfidenceAssessment {
  // Both are YYYY-MM-DD with four-digit years, so text order is date order.
  if (date >= openPeriodStart) return assessment;
  const score = Math.min(assessment.score, OUTSIDE_OPEN_PERIOD_MAX_SCORE);
  return {
    ...assessment,
    score,
    route: routeFor(score),
    reasons: [
      ...assessment.reasons,
      `dated ${date}, before the company's open period, which starts ${openPeriodStart}: ` +
        'the books before it are closed, so a person must decide where it belongs; never auto-approved',
    ],
  };
}
