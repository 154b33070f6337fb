import { ConcurrencyConflict } from '@app/domain';
import { ReceiptStore, type StoredReceipt } from '@app/application';
import type { Snapshottable } from './snapshottable';

/** ReceiptStore in a map. */
export class InMemoryReceiptStore extends ReceiptStore implements Snapshottable {
  private receipts = new Map<string, StoredReceipt>();

  async save(receipt: StoredReceipt): Promise<void> {
    if (this.receipts.has(receipt.proposalId)) {
      throw new ConcurrencyConflict(`proposal ${receipt.proposalId} already has a receipt`);
    }
    this.receipts.set(receipt.proposalId, { ...receipt, bytes: new Uint8Array(receipt.bytes) });
  }

  async find(companyId: string, proposalId: string): Promise<StoredReceipt | null> {
    const receipt = this.receipts.get(proposalId);
    return receipt && receipt.companyId === companyId ? { ...receipt, bytes: new Uint8Array(receipt.bytes) } : null;
  }

  /** How many receipts are stored: for assertions. */
  get size(): number {
    return this.receipts.size;
  }

  snapshot(): unknown {
    return new Map(this.receipts);
  }

  restore(snapshot: unknown): void {
    this.receipts = new Map(snapshot as Map<string, StoredReceipt>);
  }
}
