import { BookedReceipts, type ReceiptHolder } from '@app/application';
import type { Snapshottable } from './snapshottable';

/** BookedReceipts in a map. Same contract as the TypeORM adapter (booked-receipts.contract.ts). */
export class InMemoryBookedReceipts extends BookedReceipts implements Snapshottable {
  private holders = new Map<string, ReceiptHolder>();

  async reserve(companyId: string, sha256: string, proposalId: string): Promise<ReceiptHolder | null> {
    const key = keyOf(companyId, sha256);
    const holder = this.holders.get(key);
    if (!holder) {
      this.holders.set(key, { proposalId, bookingId: null });
      return null;
    }
    return holder.proposalId === proposalId ? null : { ...holder };
  }

  async recordBooking(companyId: string, sha256: string, proposalId: string, bookingId: string): Promise<void> {
    this.holders.set(keyOf(companyId, sha256), { proposalId, bookingId });
  }

  async release(companyId: string, sha256: string, proposalId: string): Promise<void> {
    const key = keyOf(companyId, sha256);
    const holder = this.holders.get(key);
    if (holder && holder.proposalId === proposalId && holder.bookingId === null) this.holders.delete(key);
  }

  async find(companyId: string, sha256: string): Promise<ReceiptHolder | null> {
    const holder = this.holders.get(keyOf(companyId, sha256));
    return holder ? { ...holder } : null;
  }

  snapshot(): unknown {
    return new Map(this.holders);
  }

  restore(snapshot: unknown): void {
    this.holders = new Map(snapshot as Map<string, ReceiptHolder>);
  }
}

function keyOf(companyId: string, sha256: string): string {
  return `${companyId}\u0000${sha256}`;
}
