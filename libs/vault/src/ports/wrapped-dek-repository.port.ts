import { WrappedDek } from './kms.port';

/** One company's wrapped data encryption key as stored: a row keyed by company id. */
export interface WrappedDekRecord extends WrappedDek {
  readonly companyId: string;
}

/**
 * Storage of wrapped DEKs, one per company. Rows hold `company_id` (primary key), `wrapped_dek`
 * (`bytea`) and `kek_id` (text). Nothing stored here is secret without the KMS.
 */
export abstract class WrappedDekRepository {
  abstract find(companyId: string): Promise<WrappedDekRecord | null>;

  /**
   * Stores the record unless the company already has one, and returns whichever record is stored
   * afterwards (`INSERT … ON CONFLICT (company_id) DO NOTHING`, then read). Two processes creating
   * a company's key at once must end up using the same DEK.
   */
  abstract insertIfAbsent(record: WrappedDekRecord): Promise<WrappedDekRecord>;

  /**
   * Replaces the wrapping only if the row still holds `previous` (compare-and-set on `wrapped_dek`),
   * so a re-wrap can never resurrect a destroyed key or overwrite a concurrent change.
   * Returns whether the row was updated.
   */
  abstract replaceWrapping(companyId: string, previous: WrappedDek, next: WrappedDek): Promise<boolean>;

  /** Deletes the company's wrapped DEK; returns whether there was one. */
  abstract delete(companyId: string): Promise<boolean>;

  /** Keyset page of records ordered by company id, strictly after `afterCompanyId` (null: from the start). */
  abstract listAfter(afterCompanyId: string | null, limit: number): Promise<WrappedDekRecord[]>;
}
