/** A receipt's bytes, kept beside its proposal until the executor attaches them to the booking. */
export interface StoredReceipt {
  readonly proposalId: string;
  readonly companyId: string;
  readonly filename: string;
  readonly contentType: string;
  /** Lowercase hex SHA-256 of `bytes`, as the Proposed event records it. */
  readonly sha256: string;
  readonly bytes: Uint8Array;
}

/**
 * Receipt bytes, out of the event store (events carry only the metadata and digest). Scoped by
 * company: another company's proposal id reads as absent.
 *
 * `save` joins the unit of work it is called in, so a receipt is stored if and only if its proposal
 * is; a second receipt for one proposal is refused (ConcurrencyConflict).
 */
export abstract class ReceiptStore {
  abstract save(receipt: StoredReceipt): Promise<void>;

  abstract find(companyId: string, proposalId: string): Promise<StoredReceipt | null>;
}
