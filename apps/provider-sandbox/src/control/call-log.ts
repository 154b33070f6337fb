import type { ProviderName } from '../faults/fault-spec';

export interface CallRecord {
  provider: ProviderName;
  method: string;
  /** Path below the provider root, ids replaced by `:id`, e.g. `/api/v2/companies/demo-fiken-as/purchases/:id`. */
  route: string;
  /** The path as called, without the query string. */
  path: string;
  status: number;
  /** Company of the call when known (Tripletex company id, Fiken slug). */
  company?: string;
  /** True when the sandbox destroyed the connection instead of answering. */
  dropped: boolean;
  at: string;
}

export interface CallFilter {
  provider?: ProviderName;
  method?: string;
  /** Substring of `path`. */
  path?: string;
  company?: string;
  status?: number;
}

/** A bounded log of calls plus unbounded counters per `provider method route`. */
export class CallLog {
  private records: CallRecord[] = [];
  private counters = new Map<string, number>();

  constructor(private readonly capacity: number) {}

  add(record: CallRecord): void {
    this.records.push(record);
    if (this.records.length > this.capacity) this.records.splice(0, this.records.length - this.capacity);
    const key = `${record.provider} ${record.method} ${record.route}`;
    this.counters.set(key, (this.counters.get(key) ?? 0) + 1);
  }

  list(filter: CallFilter = {}): CallRecord[] {
    return this.records.filter(
      (record) =>
        (!filter.provider || record.provider === filter.provider) &&
        (!filter.method || record.method === filter.method.toUpperCase()) &&
        (!filter.path || record.path.includes(filter.path)) &&
        (!filter.company || record.company === filter.company) &&
        (filter.status === undefined || record.status === filter.status),
    );
  }

  counts(): Record<string, number> {
    return Object.fromEntries(this.counters);
  }

  clear(): void {
    this.records = [];
    this.counters.clear();
  }
}
