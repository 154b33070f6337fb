import { Notifier, type OutboundMessage } from '@app/domain';
import type { TimeSource } from '../dispatch/runtime';
import type { NewOutboxMessage } from '../message/outbox-message';
import type { OutboxRepository } from '../ports/outbox.repository.port';

/** Structurally the domain's `IdGenerator`. */
export interface IdSource {
  next(): string;
}

/**
 * The adapter of the domain's Notifier port: turns outbound messages into outbox rows. Given a
 * transaction-scoped repository (the unit of work's), the rows commit or roll back with the events
 * that caused them. Each message's payload must be the shape its kind defines in this library
 * (`PayloadOf<kind>`); `notification(companyId, kind, payload)` builds a checked one.
 */
export class OutboxNotifier extends Notifier {
  constructor(
    private readonly repository: OutboxRepository,
    private readonly clock: TimeSource,
    private readonly ids: IdSource,
  ) {
    super();
  }

  /** Enqueues the messages and returns their outbox ids (the future `X-Delivery-Id`s), in order. */
  override async notify(messages: readonly OutboundMessage[]): Promise<string[]> {
    if (messages.length === 0) return [];
    const rows = outboxRowsOf(messages, this.clock, this.ids);
    await this.repository.enqueue(rows);
    return rows.map((row) => row.id);
  }
}

/** The outbox rows of outbound messages: a new id each, created now, due at once. */
export function outboxRowsOf(
  messages: readonly OutboundMessage[],
  clock: TimeSource,
  ids: IdSource,
): NewOutboxMessage[] {
  const createdAt = clock.now();
  return messages.map(
    (m) =>
      ({
        id: ids.next(),
        companyId: m.companyId,
        target: m.target,
        kind: m.kind,
        payload: m.payload,
        createdAt,
      }) as NewOutboxMessage,
  );
}
