import type { CompanyContext, EventOrigin, Identity } from '@app/domain';

/** Who is asking: the verified token's subject, company, channel and role. */
export type Caller = Pick<Identity, 'actor' | 'company' | 'channel' | 'role'>;

/**
 * The identity chain of the events a caller's request stores: the token's subject and channel, and
 * the company's accounting provider — the one its cached context was fetched from — or null when
 * it has not connected one yet.
 */
export function originOf(caller: Caller, context: CompanyContext | null = null): EventOrigin {
  return { actor: caller.actor, channel: caller.channel, provider: context?.provider ?? null };
}
