import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `pattern_candidates(company, key, limit)` answers from the exact key alone when the company has
 * an active pattern with it, and searches look-alikes (pg_trgm's `%`) only when it has none.
 *
 * Why: the ConfidenceEngine scores from the exact-key patterns whenever there is one and never
 * looks at the look-alikes then, while the trigram search is the costly part of the lookup: it
 * reads the GIN posting lists of every trigram of the key. The exact key is one probe of the
 * partial unique index of active keys. Both statements run in the caller's snapshot (the function
 * is STABLE), so they see the same patterns. `enable_seqscan = off` and the generic plan are kept
 * for the trigram search (migration 1763810000001).
 */
export class PatternCandidatesExactFirst1764245000001 implements MigrationInterface {
  name = 'PatternCandidatesExactFirst1764245000001';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE OR REPLACE FUNCTION pattern_candidates(p_company text, p_key text, p_limit integer)
        RETURNS SETOF patterns LANGUAGE plpgsql STABLE
        SET enable_seqscan = off
        SET plan_cache_mode = force_generic_plan
      AS $$
      BEGIN
        RETURN QUERY
          SELECT * FROM patterns
           WHERE company_id = p_company AND merchant_key = p_key AND retired_at IS NULL;
        IF FOUND THEN
          RETURN;
        END IF;
        RETURN QUERY
          SELECT * FROM patterns
           WHERE company_id = p_company AND retired_at IS NULL AND merchant_key % p_key
           ORDER BY similarity(merchant_key, p_key) DESC, id LIMIT p_limit;
      END
      $$`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE OR REPLACE FUNCTION pattern_candidates(p_company text, p_key text, p_limit integer)
        RETURNS SETOF patterns LANGUAGE plpgsql STABLE
        SET enable_seqscan = off
        SET plan_cache_mode = force_generic_plan
      AS $$
      BEGIN
        RETURN QUERY
          (SELECT * FROM patterns
            WHERE company_id = p_company AND merchant_key = p_key AND retired_at IS NULL)
          UNION ALL
          (SELECT * FROM patterns
            WHERE company_id = p_company AND retired_at IS NULL AND merchant_key % p_key AND merchant_key <> p_key
            ORDER BY similarity(merchant_key, p_key) DESC, id LIMIT p_limit);
      END
      $$`);
  }
}
