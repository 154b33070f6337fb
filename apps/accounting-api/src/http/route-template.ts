import type { Request } from 'express';

/** What a request that matched no route is logged and counted as. */
export const UNMATCHED_ROUTE = 'unmatched';

/**
 * The route a request matched, as its template (`/v1/employees/:userId`), never the values in its
 * path: an employee's user id is personal data, and raw paths would let scanners blow up a metric's
 * label set. Nest answers unknown paths from a catch-all `{/*splat}` route: those are
 * UNMATCHED_ROUTE. Known once routing has run (when the response finishes).
 */
export function routeTemplate(request: Request): string {
  const path = request.route?.path === undefined ? undefined : String(request.route.path);
  return path === undefined || path.includes('*splat') ? UNMATCHED_ROUTE : `${request.baseUrl}${path}`;
}
