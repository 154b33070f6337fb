import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `pattern_candidates(company, key, limit)`: the active patterns with exactly `key`, plus the
 * `limit` most similar other keys by trigram similarity (pg_trgm's `%`, similarity ≥
 * pg_trgm.similarity_threshold).
 *
 * Why a function: `%` is costed as a cheap operator, so with some thousands of patterns the
 * planner prefers a sequential scan computing the similarity of every key (40 ms at 10 000
 * patterns) to the partial GIN trigram index (under 1 ms). The function's `SET enable_seqscan =
 * off` rules the scan out while its body is planned and run, in one statement: before, the lookup
 * needed a transaction and two `SET LOCAL` round trips around it. PL/pgSQL rather than SQL: it keeps
 * the body's plan for the session (planning the trigram query costs more than running it).
 */
export class PatternCandidatesFunction1763810000001 implements MigrationInterface {
  name = 'PatternCandidatesFunction1763810000001';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE FUNCTION pattern_candidates(p_company text, p_key text, p_limit integer)
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

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP FUNCTION pattern_candidates(text, text, integer)');
  }
}
