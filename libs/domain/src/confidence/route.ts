/** Where a score sends a proposal (spec §3, docs/api.md §4.1). */
export const ROUTES = ['auto_approve', 'review_recommended', 'review_required'] as const;
export type Route = (typeof ROUTES)[number];

/** The boundary belongs to the higher route: exactly 0.9 auto-approves, exactly 0.7 is recommended. */
export const AUTO_APPROVE_THRESHOLD = 0.9;
export const REVIEW_RECOMMENDED_THRESHOLD = 0.7;

export function routeFor(score: number): Route {
  if (score >= AUTO_APPROVE_THRESHOLD) return 'auto_approve';
  if (score >= REVIEW_RECOMMENDED_THRESHOLD) return 'review_recommended';
  return 'review_required';
}
