/** How the executor works (EXECUTOR_* configuration); every value has a production default. */
export class ExecutorOptions {
  /** Proposals claimed per round. */
  readonly batchSize: number;
  /** Proposals executed at once by one worker. */
  readonly concurrency: number;
  /**
   * How long a claim is held. It must outlast the slowest provider call (the adapters' retries and
   * timeouts included): a claim whose lease ran out is taken again, reconciled first.
   */
  readonly leaseMs: number;
  /** First retry delay after a transient failure; doubles each attempt up to `retryMaxMs`. */
  readonly retryBaseMs: number;
  readonly retryMaxMs: number;
  /** Transient failures in a row before ExecutionFailed is stored and the review channel told. */
  readonly maxTransientAttempts: number;
  /** After that, how often the executor keeps trying (the proposal stays APPROVED meanwhile). */
  readonly failedRetryMs: number;
  /**
   * When an attempt after the first does not find the booking by reference, how long it waits before
   * searching once more, and only then books (a provider's search may lag behind its commit).
   */
  readonly reconcilePauseMs: number;
  /**
   * The longest an execution waits for its company's rate window at the provider to reopen. A
   * longer wait is not waited on a lane: the execution is deferred until the window reopens, not
   * counted as an attempt, and the lane takes the next claim (another company's, say).
   */
  readonly rateLimitWaitMs: number;

  constructor(options: Partial<ExecutorOptions> = {}) {
    this.batchSize = positive(options.batchSize ?? 20, 'batchSize');
    this.concurrency = positive(options.concurrency ?? 4, 'concurrency');
    this.leaseMs = positive(options.leaseMs ?? 15_000, 'leaseMs');
    this.retryBaseMs = positive(options.retryBaseMs ?? 5_000, 'retryBaseMs');
    this.retryMaxMs = positive(options.retryMaxMs ?? 5 * 60_000, 'retryMaxMs');
    this.maxTransientAttempts = positive(options.maxTransientAttempts ?? 6, 'maxTransientAttempts');
    this.failedRetryMs = positive(options.failedRetryMs ?? 30 * 60_000, 'failedRetryMs');
    this.reconcilePauseMs = positive(options.reconcilePauseMs ?? 2_000, 'reconcilePauseMs');
    this.rateLimitWaitMs = positive(options.rateLimitWaitMs ?? 5_000, 'rateLimitWaitMs');
  }

  /** Delay before attempt `attempt + 1`, after `attempt` transient failures. */
  retryDelayMs(attempt: number, failureReported: boolean): number {
    if (failureReported) return this.failedRetryMs;
    return Math.min(this.retryMaxMs, this.retryBaseMs * 2 ** Math.max(0, attempt - 1));
  }
}

function positive(value: number, name: string): number {
  if (!Number.isFinite(value) || value <= 0) throw new RangeError(`executor ${name} must be a positive number`);
  return value;
}
