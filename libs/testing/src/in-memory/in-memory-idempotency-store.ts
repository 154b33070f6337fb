import type { Snapshottable } from './snapshottable';
import {
  IdempotencyStore,
  type IdempotencyClaim,
  type IdempotencyRecord,
  type RecordedResponse,
} from '@app/application';

interface Entry {
  readonly requestHash: string;
  readonly expiresAt: Date;
  readonly response: RecordedResponse;
}

function keyOf(record: IdempotencyRecord): string {
  const { companyId, actor, key } = record.scope;
  return JSON.stringify([companyId, actor, key]);
}

/**
 * IdempotencyStore in a map. The in-memory units of work run one at a time, so a claim needs no
 * lock; a unit that fails puts the map back (snapshot / restore), as a rollback would.
 */
export class InMemoryIdempotencyStore extends IdempotencyStore implements Snapshottable {
  private entries = new Map<string, Entry>();

  async claim(record: IdempotencyRecord): Promise<IdempotencyClaim> {
    const entry = this.entries.get(keyOf(record));
    if (!entry || entry.expiresAt.getTime() <= record.createdAt.getTime()) return { outcome: 'claimed' };
    if (entry.requestHash !== record.requestHash) return { outcome: 'conflict' };
    return { outcome: 'replay', response: copyResponse(entry.response) };
  }

  async complete(record: IdempotencyRecord, response: RecordedResponse): Promise<void> {
    this.entries.set(keyOf(record), {
      requestHash: record.requestHash,
      expiresAt: record.expiresAt,
      response: copyResponse(response),
    });
  }

  async purgeExpired(now: Date, limit: number): Promise<number> {
    const expired = [...this.entries]
      .filter(([, entry]) => entry.expiresAt.getTime() <= now.getTime())
      .sort(([, a], [, b]) => a.expiresAt.getTime() - b.expiresAt.getTime())
      .slice(0, Math.max(0, limit));
    for (const [key] of expired) this.entries.delete(key);
    return expired.length;
  }

  /** How many keys are recorded: for assertions. */
  get size(): number {
    return this.entries.size;
  }

  snapshot(): unknown {
    return new Map(this.entries);
  }

  restore(snapshot: unknown): void {
    this.entries = new Map(snapshot as Map<string, Entry>);
  }
}

/** A stored response is JSON: copying it through JSON is exactly what a database round trip does. */
function copyResponse(response: RecordedResponse): RecordedResponse {
  return { status: response.status, body: JSON.parse(JSON.stringify(response.body)) as unknown };
}
