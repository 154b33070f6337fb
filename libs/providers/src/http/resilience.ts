import {
  BrokenCircuitError,
  CircuitBreakerPolicy,
  ConsecutiveBreaker,
  DelegateBackoff,
  IRetryBackoffContext,
  RetryPolicy,
  TimeoutStrategy,
  circuitBreaker,
  handleWhen,
  retry,
  timeout,
} from 'cockatiel';
import { ProviderError, ProviderKind } from '@app/domain';
import { TransportError } from './transport-error';

/** How hard a provider adapter tries before it gives up. Small values make tests fast. */
export interface ResilienceOptions {
  /** Per-attempt timeout (request sent → body read), ms. */
  readonly timeoutMs: number;
  /** Retries after the first attempt for transient failures. */
  readonly retries: number;
  /** First backoff delay, ms; doubled each retry, with jitter. */
  readonly initialBackoffMs: number;
  readonly maxBackoffMs: number;
  /** Longest wait accepted from a `Retry-After` / `X-Rate-Limit-Reset`, ms. */
  readonly maxRetryAfterMs: number;
  /** Consecutive failures (5xx, timeouts, dropped connections) that open the circuit. */
  readonly breakerThreshold: number;
  /** How long the circuit stays open before a trial call, ms. */
  readonly breakerHalfOpenAfterMs: number;
}

export const DEFAULT_RESILIENCE: ResilienceOptions = {
  timeoutMs: 10_000,
  retries: 3,
  initialBackoffMs: 200,
  maxBackoffMs: 5_000,
  maxRetryAfterMs: 60_000,
  breakerThreshold: 5,
  breakerHalfOpenAfterMs: 30_000,
};

export function resilienceOptions(overrides: Partial<ResilienceOptions> = {}): ResilienceOptions {
  return { ...DEFAULT_RESILIENCE, ...overrides };
}

/** Whether a failure may be retried for a request that must not run twice (a create). */
export type RetryMode = 'idempotent' | 'not-processed-only';

/**
 * Timeout on every attempt, jittered exponential retries of transient failures (honouring the
 * provider's `Retry-After`), and one circuit breaker per provider adapter (shared by every company).
 */
export class ResiliencePolicy {
  private readonly breaker: CircuitBreakerPolicy;
  private readonly retryIdempotent: RetryPolicy;
  private readonly retryNotProcessed: RetryPolicy;

  constructor(
    private readonly provider: ProviderKind,
    readonly options: ResilienceOptions,
  ) {
    this.breaker = circuitBreaker(
      handleWhen((e) => e instanceof TransportError && e.countsAgainstCircuit),
      { halfOpenAfter: options.breakerHalfOpenAfterMs, breaker: new ConsecutiveBreaker(options.breakerThreshold) },
    );
    const backoff = new DelegateBackoff<IRetryBackoffContext<unknown>>((ctx) => this.delayFor(ctx));
    this.retryIdempotent = retry(
      handleWhen((e) => e instanceof TransportError && e.transient),
      { maxAttempts: options.retries, backoff },
    );
    this.retryNotProcessed = retry(
      handleWhen((e) => e instanceof TransportError && e.transient && !e.outcomeUnknown),
      { maxAttempts: options.retries, backoff },
    );
  }

  /**
   * Runs `attempt` (given an AbortSignal that fires at the timeout) under the policies.
   * `beforeAttempt` (a rate-limit pause) runs before every attempt, and `around` (waiting for a
   * turn) wraps every attempt, both outside its timeout.
   */
  async execute<T>(
    mode: RetryMode,
    attempt: (signal: AbortSignal) => Promise<T>,
    beforeAttempt?: () => Promise<void>,
    around?: <R>(fn: () => Promise<R>) => Promise<R>,
  ): Promise<T> {
    const retryPolicy = mode === 'idempotent' ? this.retryIdempotent : this.retryNotProcessed;
    const perAttempt = timeout(this.options.timeoutMs, TimeoutStrategy.Cooperative);
    const guarded = () => this.breaker.execute(() => perAttempt.execute(({ signal }) => attempt(signal)));
    try {
      return await retryPolicy.execute(async () => {
        await beforeAttempt?.();
        return around ? around(guarded) : guarded();
      });
    } catch (error) {
      if (error instanceof BrokenCircuitError) {
        throw new TransportError(this.provider, 'circuit_open', `${this.provider} is unavailable (circuit open)`, {
          outcomeUnknown: false,
          retryAfterMs: this.options.breakerHalfOpenAfterMs,
        });
      }
      throw error;
    }
  }

  private delayFor(ctx: IRetryBackoffContext<unknown>): number {
    const error = 'error' in ctx.result ? ctx.result.error : undefined;
    if (error instanceof ProviderError && error instanceof TransportError && error.retryAfterMs !== undefined) {
      return Math.min(error.retryAfterMs, this.options.maxRetryAfterMs);
    }
    const exponential = Math.min(this.options.maxBackoffMs, this.options.initialBackoffMs * 2 ** (ctx.attempt - 1));
    return Math.round(exponential / 2 + Math.random() * (exponential / 2));
  }
}
