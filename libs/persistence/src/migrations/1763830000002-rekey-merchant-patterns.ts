import type { MigrationInterface, QueryRunner } from 'typeorm';
import { rekeyPatterns } from '../pattern/rekey-patterns';

/**
 * normalizeMerchant learnt card statements' reference codes, descriptor words and the "oe"/"aa"
 * spellings of ø and å: stored patterns get the key it gives their names today, so that they keep
 * meeting new proposals (see rekeyPatterns). Running it again after a later change of the function
 * is what the next such migration does; here it is a no-op on a database created after this one.
 */
export class RekeyMerchantPatterns1763830000002 implements MigrationInterface {
  name = 'RekeyMerchantPatterns1763830000002';

  async up(q: QueryRunner): Promise<void> {
    await rekeyPatterns(q.manager);
  }

  async down(): Promise<void> {
    // Keys are derived data: the previous function's keys are not worth restoring.
  }
}
