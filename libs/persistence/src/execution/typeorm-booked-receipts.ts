import type { EntityManager } from 'typeorm';
import { BookedReceipts, type ReceiptHolder } from '@app/application';
import { execute, select } from '../shared/sql';

interface HolderRecord {
  proposal_id: string;
  booking_id: string | null;
}

/**
 * BookedReceipts over `booked_receipts` (primary key company + SHA-256). A reservation is an
 * INSERT … ON CONFLICT DO NOTHING: a concurrent one for the same receipt waits on the key until
 * the first commits, then reads the winner.
 */
export class TypeOrmBookedReceipts extends BookedReceipts {
  constructor(private readonly manager: EntityManager) {
    super();
  }

  async reserve(companyId: string, sha256: string, proposalId: string, now: Date): Promise<ReceiptHolder | null> {
    await this.manager.query(
      `INSERT INTO booked_receipts (company_id, sha256, proposal_id, booking_id, created_at, updated_at)
       VALUES ($1, $2, $3, NULL, $4, $4) ON CONFLICT (company_id, sha256) DO NOTHING`,
      [companyId, sha256, proposalId, now],
    );
    const holder = await this.find(companyId, sha256);
    return holder && holder.proposalId !== proposalId ? holder : null;
  }

  async recordBooking(
    companyId: string,
    sha256: string,
    proposalId: string,
    bookingId: string,
    now: Date,
  ): Promise<void> {
    await this.manager.query(
      `INSERT INTO booked_receipts (company_id, sha256, proposal_id, booking_id, created_at, updated_at)
       VALUES ($1, $2, $3, $4, $5, $5)
       ON CONFLICT (company_id, sha256) DO UPDATE
         SET proposal_id = EXCLUDED.proposal_id, booking_id = EXCLUDED.booking_id, updated_at = EXCLUDED.updated_at`,
      [companyId, sha256, proposalId, bookingId, now],
    );
  }

  async release(companyId: string, sha256: string, proposalId: string): Promise<void> {
    await execute(
      this.manager,
      `DELETE FROM booked_receipts
        WHERE company_id = $1 AND sha256 = $2 AND proposal_id = $3 AND booking_id IS NULL`,
      [companyId, sha256, proposalId],
    );
  }

  async find(companyId: string, sha256: string): Promise<ReceiptHolder | null> {
    const [row] = await select<HolderRecord>(
      this.manager,
      'SELECT proposal_id, booking_id FROM booked_receipts WHERE company_id = $1 AND sha256 = $2',
      [companyId, sha256],
    );
    return row ? { proposalId: row.proposal_id, bookingId: row.booking_id } : null;
  }
}
