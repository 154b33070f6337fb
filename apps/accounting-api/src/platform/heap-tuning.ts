import { setFlagsFromString } from 'node:v8';
import type { AppConfig } from '../config/app-config';

/** The V8 flag that keeps a request's short-lived objects in the young generation. */
export const NO_PRETENURING_FLAG = '--no-allocation-site-pretenuring';

/**
 * Turns off V8's allocation-site pretenuring unless V8_ALLOCATION_SITE_PRETENURING=true. `main`
 * calls it once the configuration is read, before it builds the application.
 *
 * V8 watches which allocation sites produce objects that survive young-generation collections and,
 * past a threshold, allocates everything those sites make straight into the old generation. A burst
 * of concurrent requests (50 in flight for 30 ms) is enough to mark the sites of the per-request
 * path — the request logger's child loggers, the guard's passport context, the SQL parameters —
 * and from then on every request's objects, which die within milliseconds, went to the old
 * generation: it grew by 15–30 MB/s and a full mark-compact ran every 4–9 s, each one the tail of
 * the latency distribution. Without pretenuring those objects die young; the old generation stays
 * flat under steady load (docs/performance.md, item 13).
 */
export function applyHeapTuning(
  config: Pick<AppConfig, 'v8AllocationSitePretenuring'>,
  setFlags: (flags: string) => void = setFlagsFromString,
): void {
  if (!config.v8AllocationSitePretenuring) setFlags(NO_PRETENURING_FLAG);
}
