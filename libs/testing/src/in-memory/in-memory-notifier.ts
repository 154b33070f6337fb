import { Notifier, OutboundMessage } from '@app/domain';
import { copy, Snapshottable } from './snapshottable';

interface Queued {
  readonly id: string;
  readonly message: OutboundMessage;
}

/** Notifier that keeps what was handed over, in order, for assertions. */
export class InMemoryNotifier extends Notifier implements Snapshottable {
  private queued: Queued[] = [];
  private counter = 0;

  async notify(messages: readonly OutboundMessage[]): Promise<string[]> {
    const added = messages.map((message) => ({
      id: `message-${String(++this.counter).padStart(6, '0')}`,
      message: copy(message),
    }));
    this.queued.push(...added);
    return added.map(({ id }) => id);
  }

  /** Everything handed over so far, oldest first; optionally one company's. */
  messages(companyId?: string): OutboundMessage[] {
    return this.queued
      .filter(({ message }) => companyId === undefined || message.companyId === companyId)
      .map(({ message }) => copy(message));
  }

  clear(): void {
    this.queued = [];
  }

  snapshot(): unknown {
    return [...this.queued];
  }

  restore(snapshot: unknown): void {
    this.queued = [...(snapshot as Queued[])];
  }
}
