import { Random } from '../shared/random';
import type { ActiveFault, FaultSpec, ProviderName, RateOrCount } from './fault-spec';

/** The call a fault decision is made for. */
export interface FaultContext {
  provider: ProviderName;
  method: string;
  /** URL path of the call, e.g. `/tripletex/v2/ledger/voucher`. */
  path: string;
  /** Keys that name the company of the call (company id, employee token, slug). */
  companyKeys: readonly string[];
}

export interface FaultDecision {
  latencyMs: number;
  drop: 'before' | 'after' | null;
  serverError: number | null;
  /** `omitRetryHeader` as the fault said it, undefined when it did not: each sandbox has its default. */
  rateLimited: { omitRetryHeader: boolean | undefined } | null;
  /** Answer the (GET) call with an empty list. */
  hideResults: boolean;
}

interface Trigger {
  rate: number;
  remaining: number;
}

function trigger(value: number | true | RateOrCount | undefined): Trigger | undefined {
  if (value === undefined) return undefined;
  if (value === true) return { rate: 1, remaining: Infinity };
  if (typeof value === 'number') return { rate: value, remaining: Infinity };
  return { rate: value.rate ?? 1, remaining: value.next ?? Infinity };
}

interface Entry {
  fault: ActiveFault;
  error?: Trigger;
  rateLimit?: Trigger;
  drop?: Trigger;
  hide?: Trigger;
}

/**
 * Holds the active faults and decides, deterministically from the sandbox seed, which calls they hit.
 * "next N" triggers fire on the next N matching calls; rates draw from a seeded generator.
 */
export class FaultRegistry {
  private entries: Entry[] = [];
  private sequence = 0;
  private random: Random;

  constructor(private readonly seed: number) {
    this.random = new Random(seed ^ 0x5eed);
  }

  add(spec: FaultSpec): ActiveFault {
    const fault: ActiveFault = { ...spec, id: `fault-${++this.sequence}` };
    const entry: Entry = { fault };
    if (spec.errorNext !== undefined || spec.errorRate !== undefined) {
      entry.error = {
        rate: spec.errorRate ?? (spec.errorNext !== undefined ? 1 : 0),
        remaining: spec.errorNext ?? Infinity,
      };
    }
    entry.rateLimit = trigger(spec.rateLimit);
    entry.drop = trigger(spec.dropConnections);
    entry.hide = trigger(spec.hideResults);
    if (entry.error || entry.rateLimit || entry.drop || entry.hide || spec.latencyMs) this.entries.push(entry);
    return fault;
  }

  remove(id: string): boolean {
    const before = this.entries.length;
    this.entries = this.entries.filter((entry) => entry.fault.id !== id);
    return this.entries.length !== before;
  }

  clear(): void {
    this.entries = [];
    this.random = new Random(this.seed ^ 0x5eed);
  }

  list(): ActiveFault[] {
    return this.entries.map((entry) => entry.fault);
  }

  decide(context: FaultContext): FaultDecision {
    const decision: FaultDecision = {
      latencyMs: 0,
      drop: null,
      serverError: null,
      rateLimited: null,
      hideResults: false,
    };
    for (const entry of this.entries) {
      if (!matches(entry.fault, context)) continue;
      decision.latencyMs += entry.fault.latencyMs ?? 0;
      if (decision.drop === null && this.fires(entry.drop)) {
        const spec = entry.fault.dropConnections;
        decision.drop = typeof spec === 'object' && spec.afterHandling ? 'after' : 'before';
      }
      if (decision.serverError === null && this.fires(entry.error)) {
        decision.serverError = entry.fault.errorStatus ?? 500;
      }
      if (decision.rateLimited === null && this.fires(entry.rateLimit)) {
        const spec = entry.fault.rateLimit;
        decision.rateLimited = { omitRetryHeader: typeof spec === 'object' ? spec.omitRetryHeader : undefined };
      }
      if (!decision.hideResults && context.method.toUpperCase() === 'GET' && this.fires(entry.hide)) {
        decision.hideResults = true;
      }
    }
    this.entries = this.entries.filter((entry) => !exhausted(entry));
    return decision;
  }

  private fires(trigger: Trigger | undefined): boolean {
    if (!trigger || trigger.remaining <= 0) return false;
    if (trigger.rate < 1 && this.random.next() >= trigger.rate) return false;
    trigger.remaining -= 1;
    return true;
  }
}

function exhausted(entry: Entry): boolean {
  const triggers = [entry.error, entry.rateLimit, entry.drop, entry.hide].filter((t): t is Trigger => t !== undefined);
  return triggers.length > 0 && triggers.every((t) => t.remaining <= 0) && !entry.fault.latencyMs;
}

export function faultMatchesScope(fault: FaultSpec, provider: ProviderName, companyKeys: readonly string[]): boolean {
  if (fault.provider !== 'all' && fault.provider !== provider) return false;
  return fault.companyId === undefined || companyKeys.includes(fault.companyId);
}

function matches(fault: FaultSpec, context: FaultContext): boolean {
  if (!faultMatchesScope(fault, context.provider, context.companyKeys)) return false;
  if (fault.method && fault.method.toUpperCase() !== context.method.toUpperCase()) return false;
  return !fault.path || context.path.includes(fault.path);
}
