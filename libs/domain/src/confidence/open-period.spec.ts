import fc from 'fast-check';
import type { ConfidenceAssessment } from './confidence-engine';
import { holdOutsideOpenPeriod, OUTSIDE_OPEN_PERIOD_MAX_SCORE } from './open-period';
import { minScoreOf } from './route';

describe('holdOutsideOpenPeriod', () => {
  const assessment: ConfidenceAssessment = {
    score: 0.96,
    route: 'auto_approve',
    reasons: ['exact merchant match: spotify'],
    merchantKey: 'spotify',
    patternId: 'pattern-1',
  };

  it.each(['1970-01-01', '2024-12-31'])(
    'caps a proposal dated %s, before the open period, in the review-required band and says why',
    (date) => {
      const held = holdOutsideOpenPeriod(assessment, date, '2025-01-01');

      expect(held).toMatchObject({
        score: OUTSIDE_OPEN_PERIOD_MAX_SCORE,
        route: 'review_required',
        patternId: 'pattern-1',
      });
      expect(held.reasons).toEqual([
        ...assessment.reasons,
        `dated ${date}, before the company's open period, which starts 2025-01-01: ` +
          'the books before it are closed, so a person must decide where it belongs; never auto-approved',
      ]);
    },
  );

  it.each(['2025-01-01', '2026-11-21'])('keeps a proposal dated %s, in the open period, as it is', (date) => {
    expect(holdOutsideOpenPeriod(assessment, date, '2025-01-01')).toBe(assessment);
  });

  it('keeps a lower score, and never auto-approves a date before the open period', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 100 }),
        fc.date({ min: new Date('1900-01-01'), max: new Date('2024-12-31'), noInvalidDate: true }),
        (hundredths, at) => {
          const score = hundredths / 100;
          const held = holdOutsideOpenPeriod({ ...assessment, score }, at.toISOString().slice(0, 10), '2025-01-01');
          expect(held.score).toBe(Math.min(score, OUTSIDE_OPEN_PERIOD_MAX_SCORE));
          expect(held.score).toBeLessThan(minScoreOf('auto_approve'));
          expect(held.route).not.toBe('auto_approve');
        },
      ),
    );
  });
});
