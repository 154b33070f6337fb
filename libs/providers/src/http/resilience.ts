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
import { TransportError, windowClosedError } from './transport-error';

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
  /**
   * The provider-wide circuit opens only on a provider-wide signal: `breakerThreshold` failures in a
   * row (no success between them) from at least this many different companies.
   */
  readonly providerBreakerCompanies: number;
}

export const DEFAULT_RESILIENCE: ResilienceOptions = {
  timeoutMs: 10_000,
  retries: 3,
  initialBackoffMs: 200,
  maxBackoffMs: 5_000,
  maxRetryAfterMs: 60_000,
  breakerThreshold: 5,
  breakerHalfOpenAfterMs: 30_000,
  providerBreakerCompanies: 3,
};

export function resilienceOptions(overrides: Partial<ResilienceOptions> = {}): ResilienceOptions {
  return { ...DEFAULT_RESILIENCE, ...overrides };
}

/** Whether a failure may be retried for a request that must not run twice (a create). */
export type RetryMode = 'idempotent' | 'not-processed-only';

/** Company circuits remembered at once; the least recently used is forgotten beyond it. */
const MAX_COMPANY_BREAKERS = 10_000;

/**
 * Timeout on every attempt, jittered exponential retries of transient failures (honouring the
 * provider's `Retry-After`), and circuit breakers: one per company (a company whose calls keep
 * failing or timing out stops being called for a while, and no other company notices), and one for
 * the provider as a whole that opens only on a provider-wide signal — failures in a row from several
 * companies (`providerBreakerCompanies`), with no success between them.
 */
export class ResiliencePolicy {
  private readonly breakers = new Map<string, CircuitBreakerPolicy>();
  private readonly providerWide: ProviderWideBreaker;
  private readonly retryIdempotent: RetryPolicy;
  private readonly retryNotProcessed: RetryPolicy;

  constructor(
    private readonly provider: ProviderKind,
    readonly options: ResilienceOptions,
  ) {
    this.providerWide = new ProviderWideBreaker(
      options.breakerThreshold,
      options.providerBreakerCompanies,
      options.breakerHalfOpenAfterMs,
    );
    const backoff = new DelegateBackoff<IRetryBackoffContext<unknown>>((ctx) => this.delayFor(ctx));
    // A closed rate window that the call would not wait for is handed to the caller, not retried.
    this.retryIdempotent = retry(
      handleWhen((e) => e instanceof TransportError && e.transient && !e.windowClosed),
      { maxAttempts: options.retries, backoff },
    );
    this.retryNotProcessed = retry(
      handleWhen((e) => e instanceof TransportError && e.transient && !e.outcomeUnknown && !e.windowClosed),
      { maxAttempts: options.retries, backoff },
    );
  }

  /**
   * Runs `attempt` (given an AbortSignal that fires at the timeout) under the policies.
   * `beforeAttempt` (a rate-limit pause) runs before every attempt, and `around` (waiting for a
   * turn) wraps every attempt, both outside its timeout. A 429 whose wait (`Retry-After`, capped
   * at `maxRetryAfterMs`) is longer than `maxRateLimitWaitMs` is not retried: the call fails at once
   * with a `windowClosed` error saying when to come back.
   */
  async execute<T>(
    mode: RetryMode,
    attempt: (signal: AbortSignal) => Promise<T>,
    beforeAttempt?: () => Promise<void>,
    around?: <R>(fn: () => Promise<R>) => Promise<R>,
    /** Whose circuit the call goes through: the company (its connection); one shared key when unsaid. */
    company = '',
    maxRateLimitWaitMs = this.options.maxRetryAfterMs,
  ): Promise<T> {
    const retryPolicy = mode === 'idempotent' ? this.retryIdempotent : this.retryNotProcessed;
    const perAttempt = timeout(this.options.timeoutMs, TimeoutStrategy.Cooperative);
    const breaker = this.breakerOf(company);
    const guarded = async () => {
      if (this.providerWide.isOpen()) throw new BrokenCircuitError();
      try {
        const result = await breaker.execute(() => perAttempt.execute(({ signal }) => attempt(signal)));
        this.providerWide.succeeded();
        return result;
      } catch (error) {
        if (error instanceof TransportError && error.countsAgainstCircuit) this.providerWide.failed(company);
        throw error;
      }
    };
    try {
      return await retryPolicy.execute(async () => {
        await beforeAttempt?.();
        try {
          return await (around ? around(guarded) : guarded());
        } catch (error) {
          throw this.notWaitedFor(error, maxRateLimitWaitMs);
        }
      });
    } catch (error) {
      if (error instanceof BrokenCircuitError) {
        const scope = this.providerWide.isOpen() ? '' : ' for this company';
        throw new TransportError(
          this.provider,
          'circuit_open',
          `${this.provider} is unavailable${scope} (circuit open)`,
          { outcomeUnknown: false, retryAfterMs: this.options.breakerHalfOpenAfterMs },
        );
      }
      throw error;
    }
  }

  /** A 429 that asks for a longer wait than `maxWaitMs` as a `windowClosed` error; any other error as it is. */
  private notWaitedFor(error: unknown, maxWaitMs: number): unknown {
    if (!(error instanceof TransportError) || error.reason !== 'rate_limited' || error.retryAfterMs === undefined)
      return error;
    const wait = Math.min(error.retryAfterMs, this.options.maxRetryAfterMs);
    return wait > maxWaitMs ? windowClosedError(this.provider, wait, error.status) : error;
  }

  /** The company's circuit breaker, made on first use; the map keeps the most recently used. */
  private breakerOf(company: string): CircuitBreakerPolicy {
    let breaker = this.breakers.get(company);
    if (breaker) {
      this.breakers.delete(company);
    } else {
      breaker = circuitBreaker(
        handleWhen((e) => e instanceof TransportError && e.countsAgainstCircuit),
        {
          halfOpenAfter: this.options.breakerHalfOpenAfterMs,
          breaker: new ConsecutiveBreaker(this.options.breakerThreshold),
        },
      );
    }
    this.breakers.set(company, breaker);
    if (this.breakers.size > MAX_COMPANY_BREAKERS) {
      const oldest = this.breakers.keys().next().value as string;
      this.breakers.delete(oldest);
    }
    return breaker;
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

/**
 * The provider-wide circuit: opens when `threshold` calls in a row have failed (5xx, timeouts,
 * dropped connections) and they came from at least `companies` different companies — the provider is
 * down, not one company's data slow. Any success closes the count. Open, every call fails fast
 * until `halfOpenAfterMs` has passed; then calls go through again and the count starts afresh.
 */
class ProviderWideBreaker {
  private failures: string[] = [];
  private openUntil = 0;

  constructor(
    private readonly threshold: number,
    private readonly companies: number,
    private readonly halfOpenAfterMs: number,
  ) {}

  isOpen(): boolean {
    return Date.now() < this.openUntil;
  }

  succeeded(): void {
    this.failures = [];
  }

  failed(company: string): void {
    this.failures.push(company);
    if (this.failures.length > this.threshold) this.failures.shift();
    if (this.failures.length >= this.threshold && new Set(this.failures).size >= this.companies) {
      this.openUntil = Date.now() + this.halfOpenAfterMs;
      this.failures = [];
    }
  }
}
