/**
 * One HTTP call made to an accounting provider, as events carry it in `api_calls`
 * (docs/api.md §4.3). `path` is relative to the provider's base URL, without query string and
 * without secrets; `status` is the HTTP status, or 0 when no response arrived (timeout, dropped
 * connection, circuit open before sending is never recorded).
 */
export interface ApiCall {
  readonly method: string;
  readonly path: string;
  readonly status: number;
}

/** Receives every provider call of one operation, in the order they were made. */
export interface ApiCallRecorder {
  record(call: ApiCall): void;
}

/** The usual recorder: collects the calls so the caller can put them into its event. */
export class ApiCallLog implements ApiCallRecorder {
  private readonly entries: ApiCall[] = [];

  record(call: ApiCall): void {
    this.entries.push({ method: call.method, path: call.path, status: call.status });
  }

  get calls(): readonly ApiCall[] {
    return [...this.entries];
  }
}

/** Discards calls: for callers that do not store events (checks, balance). */
export const IGNORE_API_CALLS: ApiCallRecorder = { record: () => undefined };
