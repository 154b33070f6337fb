import type { OutboxMessage } from '../message/outbox-message';
import type { OutboxRepository } from '../ports/outbox.repository.port';

/**
 * What the service sent (or is sending) to the caller's company's channels, newest first, in
 * every delivery state: the query behind the console's messages page. Access (`monitor`, manager
 * and up) is checked by the route; the query reads the caller's own company only.
 */
export class ListRecentMessages {
  constructor(private readonly outbox: OutboxRepository) {}

  execute(caller: { readonly company: string }, limit: number): Promise<OutboxMessage[]> {
    if (!Number.isInteger(limit) || limit < 1) throw new RangeError('limit must be a whole number ≥ 1');
    return this.outbox.listRecent(caller.company, limit);
  }
}
