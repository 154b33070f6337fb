import {
  OutboxRepository,
  type Delivery,
  type HeldClaim,
  type NewOutboxMessage,
  type OutboxMessage,
} from '@app/notifications';

function copy(message: OutboxMessage): OutboxMessage {
  return structuredClone(message);
}

function isPending(message: OutboxMessage): boolean {
  return message.deliveredAt === null && message.deadAt === null;
}

function byDueOrder(a: OutboxMessage, b: OutboxMessage): number {
  return (
    a.nextAttemptAt.getTime() - b.nextAttemptAt.getTime() ||
    a.createdAt.getTime() - b.createdAt.getTime() ||
    (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)
  );
}

/**
 * The outbox in process memory, for tests and the embedded development mode. Meets the same
 * contract as the PostgreSQL adapter; rows are copied in and out, so callers never share state
 * with it. JavaScript's single thread makes each method atomic.
 */
export class InMemoryOutboxRepository extends OutboxRepository {
  private readonly rows = new Map<string, OutboxMessage>();

  override async enqueue(messages: readonly NewOutboxMessage[]): Promise<void> {
    for (const message of messages) {
      if (this.rows.has(message.id)) continue;
      const { nextAttemptAt, ...rest } = message;
      this.rows.set(
        message.id,
        copy({
          ...rest,
          attempts: 0,
          nextAttemptAt: nextAttemptAt ?? message.createdAt,
          deliveredAt: null,
          deadAt: null,
          lastError: null,
        } as OutboxMessage),
      );
    }
  }

  override async claimDue(now: Date, limit: number, leaseUntil: Date): Promise<OutboxMessage[]> {
    const due = [...this.rows.values()]
      .filter((row) => isPending(row) && row.nextAttemptAt.getTime() <= now.getTime())
      .sort(byDueOrder)
      .slice(0, Math.max(0, limit));
    for (const row of due) {
      row.attempts += 1;
      row.nextAttemptAt = new Date(leaseUntil);
    }
    return due.map(copy);
  }

  override async renew(claims: readonly HeldClaim[], leaseUntil: Date): Promise<number> {
    let held = 0;
    for (const { id, attempt } of claims) {
      const row = this.fenced(id, attempt);
      if (!row) continue;
      row.nextAttemptAt = new Date(leaseUntil);
      held++;
    }
    return held;
  }

  override async markDelivered(deliveries: readonly Delivery[]): Promise<void> {
    for (const { id, at } of deliveries) {
      const row = this.rows.get(id);
      if (row && row.deliveredAt === null) row.deliveredAt = new Date(at);
    }
  }

  override async markFailed(id: string, attempt: number, error: string, nextAttemptAt: Date): Promise<boolean> {
    const row = this.fenced(id, attempt);
    if (!row) return false;
    row.lastError = error;
    row.nextAttemptAt = new Date(nextAttemptAt);
    return true;
  }

  override async markDead(id: string, attempt: number, error: string, at: Date): Promise<boolean> {
    const row = this.fenced(id, attempt);
    if (!row) return false;
    row.lastError = error;
    row.deadAt = new Date(at);
    return true;
  }

  override async listRecent(companyId: string, limit: number): Promise<OutboxMessage[]> {
    return [...this.rows.values()]
      .filter((row) => row.companyId === companyId)
      .sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || (a.id < b.id ? 1 : -1))
      .slice(0, Math.max(0, limit))
      .map(copy);
  }

  override async findDead(limit: number): Promise<OutboxMessage[]> {
    return [...this.rows.values()]
      .filter((row) => row.deliveredAt === null && row.deadAt !== null)
      .sort((a, b) => (b.deadAt as Date).getTime() - (a.deadAt as Date).getTime())
      .slice(0, Math.max(0, limit))
      .map(copy);
  }

  override async requeue(id: string, at: Date): Promise<boolean> {
    const row = this.rows.get(id);
    if (!row || row.deliveredAt !== null || row.deadAt === null) return false;
    row.deadAt = null;
    row.attempts = 0;
    row.nextAttemptAt = new Date(at);
    return true;
  }

  /** Every row, oldest first: a test's view of the table. */
  all(): OutboxMessage[] {
    return [...this.rows.values()]
      .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || (a.id < b.id ? -1 : 1))
      .map(copy);
  }

  find(id: string): OutboxMessage | undefined {
    const row = this.rows.get(id);
    return row ? copy(row) : undefined;
  }

  private fenced(id: string, attempt: number): OutboxMessage | undefined {
    const row = this.rows.get(id);
    if (!row || !isPending(row) || row.attempts !== attempt) return undefined;
    return row;
  }
}
