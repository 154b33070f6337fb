import type { MigrationInterface, QueryRunner } from 'typeorm';
import { rekeyProposals } from '../proposal/rekey-proposals';

/**
 * The duplicate check reads the company's earlier purchases of the same merchant (its key) with a
 * NOK amount and a date close to the new one's (ProposalRepository.findDuplicateCandidates); it read
 * every merchant's and left the merchant to the domain. Proposals get today's merchant key first
 * (keys stored before normalizeMerchant last changed were never re-keyed, as patterns were), and
 * the index leads with the key.
 */
export class DuplicatePurchaseIndex1764380000001 implements MigrationInterface {
  name = 'DuplicatePurchaseIndex1764380000001';

  async up(q: QueryRunner): Promise<void> {
    await rekeyProposals(q.manager);
    await q.query('DROP INDEX proposals_duplicate_nok_amount_idx');
    await q.query(
      `CREATE INDEX proposals_duplicate_purchase_idx
        ON proposals (company_id, merchant_key, (COALESCE(amount_nok, amount)), accounting_date)`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP INDEX proposals_duplicate_purchase_idx');
    await q.query(
      `CREATE INDEX proposals_duplicate_nok_amount_idx
        ON proposals (company_id, (COALESCE(amount_nok, amount)), accounting_date)`,
    );
  }
}
