import { aPattern, SUBMITTER } from '@app/testing';
import { ConfidenceEngine } from './confidence-engine';
import { CONFIDENCE_BANDS, describeConfidenceBands, minScoreOf, ROUTES, routeFor, routeLabel } from './route';

/** Moves one band's lower bound for the length of `run`, as an edit of the table would. */
function withMin<T>(route: (typeof ROUTES)[number], min: number, run: () => T): T {
  const band = CONFIDENCE_BANDS.find((b) => b.route === route) as { min: number };
  const before = band.min;
  band.min = min;
  try {
    return run();
  } finally {
    band.min = before;
  }
}

describe('CONFIDENCE_BANDS', () => {
  it('names the three routes with their lower bounds, highest first', () => {
    expect(CONFIDENCE_BANDS).toEqual([
      { route: 'auto_approve', min: 0.9, label: 'auto-approve' },
      { route: 'review_recommended', min: 0.7, label: 'review recommended' },
      { route: 'review_required', min: 0, label: 'review required' },
    ]);
    expect(ROUTES).toEqual(['auto_approve', 'review_recommended', 'review_required']);
    expect(minScoreOf('auto_approve')).toBe(0.9);
    expect(routeLabel('review_recommended')).toBe('review recommended');
    expect(routeLabel('nonsense')).toBeNull();
  });

  it('describes the bands in words for the API', () => {
    expect(describeConfidenceBands()).toBe('auto_approve ≥ 0.9, review_recommended ≥ 0.7, review_required < 0.7');
  });

  it('is what routing reads: moving a bound moves the engine’s route and the description', () => {
    const engine = new ConfidenceEngine();
    const onTheBoundary = () =>
      engine.score(
        {
          merchant: 'Spotify AB',
          accountCode: '6540',
          vatRate: '25',
          amount: 11900,
          currency: 'NOK',
          submittedBy: SUBMITTER,
        },
        [aPattern({ approvals: 0, amounts: [] })],
        { autoApproveMaxAmount: null },
      );
    expect(onTheBoundary()).toMatchObject({ score: 0.9, route: 'auto_approve' });

    withMin('auto_approve', 0.95, () => {
      expect(onTheBoundary()).toMatchObject({ score: 0.9, route: 'review_recommended' });
      expect(routeFor(0.94)).toBe('review_recommended');
      expect(describeConfidenceBands()).toBe('auto_approve ≥ 0.95, review_recommended ≥ 0.7, review_required < 0.7');
    });
    withMin('review_recommended', 0.5, () => {
      expect(routeFor(0.6)).toBe('review_recommended');
      expect(describeConfidenceBands()).toContain('review_required < 0.5');
    });
    expect(routeFor(0.6)).toBe('review_required');
  });
});
