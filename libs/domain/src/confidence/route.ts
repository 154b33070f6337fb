/**
 * The confidence bands (spec §3, docs/api.md §4.1): where a score sends a proposal. This table is
 * the one place the routes and their lower bounds are named; the engine's routing, the API's
 * descriptions and the console read it. Highest band first; a score belongs to the first band
 * whose `min` it reaches, so the boundary belongs to the higher route (exactly 0.9 auto-approves,
 * exactly 0.7 is recommended). The last band starts at 0 and takes every other score.
 */
export const CONFIDENCE_BANDS = [
  { route: 'auto_approve', min: 0.9, label: 'auto-approve' },
  { route: 'review_recommended', min: 0.7, label: 'review recommended' },
  { route: 'review_required', min: 0, label: 'review required' },
] as const;

export type Route = (typeof CONFIDENCE_BANDS)[number]['route'];
export const ROUTES: readonly Route[] = CONFIDENCE_BANDS.map((band) => band.route);

/** The lowest score of a route's band: `minScoreOf('auto_approve')` is where auto-approval starts. */
export function minScoreOf(route: Route): number {
  return CONFIDENCE_BANDS.find((band) => band.route === route)?.min ?? 0;
}

export function routeFor(score: number): Route {
  return (CONFIDENCE_BANDS.find((band) => score >= band.min) ?? CONFIDENCE_BANDS[CONFIDENCE_BANDS.length - 1]).route;
}

/** A route in words ("review recommended"), or null for a string that names no band. */
export function routeLabel(route: string): string | null {
  return CONFIDENCE_BANDS.find((band) => band.route === route)?.label ?? null;
}

/** The bands in words, highest first: "auto_approve ≥ 0.9, review_recommended ≥ 0.7, review_required < 0.7". */
export function describeConfidenceBands(): string {
  return CONFIDENCE_BANDS.map((band, index) => {
    if (index < CONFIDENCE_BANDS.length - 1) return `${band.route} ≥ ${band.min}`;
    return `${band.route} < ${CONFIDENCE_BANDS[index - 1].min}`;
  }).join(', ');
}
