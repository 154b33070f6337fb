import { setFlagsFromString } from 'node:v8';
import type { AppConfig } from '../config/app-config';

/** The V8 flag that keeps a request's short-lived objects in the young generation. */
export const NO_PRETENURING_FLAG = '--no-allocation-site-pretenuring';

/** The V8 flag that sets how far the heap may grow past its live data before a full collection. */
export function heapGrowingFlag(percent: number): string {
  return `--heap-growing-percent=${percent}`;
}

/**
 * Sets V8's heap flags from the configuration. `main` calls it once the configuration is read,
 * before it builds the application.
 *
 * **Allocation-site pretenuring** is off unless V8_ALLOCATION_SITE_PRETENURING=true. V8 watches
 * which allocation sites produce objects that survive young-generation collections and, past a
 * threshold, allocates everything those sites make straight into the old generation. A burst of
 * concurrent requests (50 in flight for 30 ms) is enough to mark the sites of the per-request
 * path — the request logger's child loggers, the guard's passport context, the SQL parameters —
 * and from then on every request's objects, which die within milliseconds, went to the old
 * generation: it grew by 15–30 MB/s and a full mark-compact ran every 4–9 s, each one the tail of
 * the latency distribution. Without pretenuring those objects die young; the old generation stays
 * flat under steady load (docs/performance.md).
 *
 * **Heap growth** is 50 % past the live data (V8_HEAP_GROWING_PERCENT; 0 = V8's own factor). The
 * daily job keeps about 65 MB alive but promotes pages in flight at a high rate; V8's own factor,
 * chosen because its full collections are quick, let that garbage reach 200 MB before collecting,
 * and the process peaked near 450 MB RSS. At 50 % the same run peaks under 256 MB, its full
 * collections more frequent, for 8–12 % more wall time (docs/performance.md). Unlike `--max-old-space-size` this bounds nothing: a heap whose live
 * data grows (receipt uploads of 10 MiB) grows with it, so it cannot run out of memory early.
 */
export function applyHeapTuning(
  config: Pick<AppConfig, 'v8AllocationSitePretenuring' | 'v8HeapGrowingPercent'>,
  setFlags: (flags: string) => void = setFlagsFromString,
): void {
  if (!config.v8AllocationSitePretenuring) setFlags(NO_PRETENURING_FLAG);
  if (config.v8HeapGrowingPercent > 0) setFlags(heapGrowingFlag(config.v8HeapGrowingPercent));
}
