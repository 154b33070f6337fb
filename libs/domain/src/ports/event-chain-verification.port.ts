/** How one event of a checked chain (a proposal's, a pattern's) stands in its company's hash chain. */
export interface EventLinkCheck {
  /** Null for an event missing from the chain's sequence (removed). */
  readonly eventId: string | null;
  readonly sequence: number;
  /** The event's seal's place in the company's chain; null when it has no seal. */
  readonly chainIndex: number | null;
  /** `pending`: recorded within the grace period and not sealed yet. */
  readonly state: 'verified' | 'pending' | 'broken';
  readonly reason: string | null;
}

export interface EventsVerification {
  /** True when no event of the chain is broken. */
  readonly ok: boolean;
  /** One per event, and one per missing sequence number, in sequence order. */
  readonly events: readonly EventLinkCheck[];
  readonly verified: number;
  readonly pending: number;
  readonly broken: number;
  /**
   * False while the database has no chain key yet (every link predates keying): the links are then
   * checked unkeyed, as anyone could recompute them.
   */
  readonly keyed: boolean;
}

/**
 * Checks the events of one chain (`correlationId`: a proposal with its resubmissions, or a
 * pattern) against the company's tamper-evident hash chain, reading only — what a page showing
 * those events says about them. The whole chain of a company is checked by the CLI's
 * `events verify`.
 */
export abstract class EventChainVerification {
  abstract verifyChain(companyId: string, correlationId: string): Promise<EventsVerification>;
}
