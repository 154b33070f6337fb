import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `expect_active_patterns(company, key, ids, versions)`: true when the active patterns with exactly
 * `key` are the patterns `ids` at `versions` (none added, none retired, none changed), else it
 * raises SQLSTATE `UAP01` (a code of ours, outside the standard classes).
 *
 * A submission scores against a merchant's patterns remembered from an earlier read and sends this
 * check in the same statement as its inserts (`PatternStore.expectActive`): when the patterns
 * changed meanwhile, the whole statement fails and nothing of the submission is stored. It reads
 * through the partial unique index on (company_id, merchant_key, …) of active patterns.
 */
export class ExpectActivePatternsFunction1763820000001 implements MigrationInterface {
  name = 'ExpectActivePatternsFunction1763820000001';

  async up(q: QueryRunner): Promise<void> {
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

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP FUNCTION expect_active_patterns(text, text, text[], integer[])');
  }
}
