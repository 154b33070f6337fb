import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Drops `expect_active_patterns`: submissions read a merchant's patterns for every proposal and no
 * longer check a remembered copy at commit time.
 */
export class DropExpectActivePatternsFunction1763830000003 implements MigrationInterface {
  name = 'DropExpectActivePatternsFunction1763830000003';

  async up(q: QueryRunner): Promise<void> {
    await q.query('DROP FUNCTION IF EXISTS expect_active_patterns(text, text, text[], integer[])');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE FUNCTION expect_active_patterns(p_company text, p_key text, p_ids text[], p_versions integer[])
        RETURNS boolean LANGUAGE plpgsql STABLE
      AS $$
      DECLARE
        active integer;
        unchanged integer;
      BEGIN
        SELECT count(*), count(*) FILTER (WHERE (p.id, p.version) IN (SELECT * FROM unnest(p_ids, p_versions)))
          INTO active, unchanged
          FROM patterns p
         WHERE p.company_id = p_company AND p.merchant_key = p_key AND p.retired_at IS NULL;
        IF active <> coalesce(cardinality(p_ids), 0) OR unchanged <> active THEN
          RAISE EXCEPTION 'the active patterns for merchant key % changed', p_key USING ERRCODE = 'UAP01';
        END IF;
        RETURN true;
      END
      $$`);
  }
}
