import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Who stands behind a pattern, for separation of duties (docs/security.md): a proposal never
 * auto-approves from a pattern its submitter wrote or last changed, and needs one confirmed by
 * someone else.
 *
 * - `written_by`: the accountant who created it through the patterns API; null when it was learnt
 *   from an approval.
 * - `last_changed_by`: the accountant who last edited it; null until then.
 * - `confirmed_by`: who confirmed the rule as it stands, newest first, each person once, at most two
 *   (two distinct people are enough to tell, for any submitter, whether someone else confirmed it).
 *
 * Existing patterns get these from their own events (each pattern is its chain, correlation_id =
 * its id): the writer from the `created` event, the last changer from the last `edited` one, and
 * the confirmers from the events since the last `created`/`edited` one whose snapshot was
 * verified. An edit is taken to have changed the rule (the events do not say whether it did), so
 * confirmations before it do not count: when in doubt, a person reviews. A pattern now unverified,
 * or without events, gets no confirmers and so auto-approves nothing until someone confirms it.
 */
export class PatternSeparationOfDuties1763830000001 implements MigrationInterface {
  name = 'PatternSeparationOfDuties1763830000001';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE patterns
        ADD COLUMN written_by      text NULL,
        ADD COLUMN last_changed_by text NULL,
        ADD COLUMN confirmed_by    text[] NOT NULL DEFAULT '{}'
          CHECK (cardinality(confirmed_by) <= 2 AND array_position(confirmed_by, NULL) IS NULL)`);
    await backfillPatternSeparationOfDuties(q);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE patterns DROP COLUMN written_by, DROP COLUMN last_changed_by, DROP COLUMN confirmed_by');
  }
}

/** Fills the three columns of every pattern from its events (see the migration). Exported for its test. */
export async function backfillPatternSeparationOfDuties(q: Pick<QueryRunner, 'query'>): Promise<void> {
  await q.query(`
    WITH saved AS (
      SELECT e.correlation_id AS pattern_id, e.actor, e.sequence, e.data->>'cause' AS cause,
             coalesce((e.data->'pattern'->>'verified')::boolean, false) AS verified
        FROM events e
        JOIN patterns p ON p.id = e.correlation_id AND p.company_id = e.company_id
       WHERE e.type = 'PatternSaved'
    ),
    writes AS (
      SELECT pattern_id,
             (array_agg(actor ORDER BY sequence) FILTER (WHERE cause = 'created'))[1] AS written_by,
             (array_agg(actor ORDER BY sequence DESC) FILTER (WHERE cause = 'edited'))[1] AS last_changed_by,
             coalesce(max(sequence) FILTER (WHERE cause IN ('created', 'edited')), 0) AS since
        FROM saved
       GROUP BY pattern_id
    ),
    confirmations AS (
      SELECT s.pattern_id, s.actor, s.sequence,
             row_number() OVER (PARTITION BY s.pattern_id, lower(btrim(s.actor)) ORDER BY s.sequence DESC) AS nth
        FROM saved s
        JOIN writes w ON w.pattern_id = s.pattern_id
       WHERE s.verified AND s.sequence >= w.since AND s.cause IN ('created', 'edited', 'approval')
    ),
    confirmers AS (
      SELECT pattern_id, (array_agg(actor ORDER BY sequence DESC))[1:2] AS confirmed_by
        FROM confirmations
       WHERE nth = 1
       GROUP BY pattern_id
    )
    UPDATE patterns p
       SET written_by = w.written_by,
           last_changed_by = w.last_changed_by,
           confirmed_by = CASE WHEN p.verified THEN coalesce(c.confirmed_by, '{}') ELSE '{}' END
      FROM writes w
      LEFT JOIN confirmers c ON c.pattern_id = w.pattern_id
     WHERE p.id = w.pattern_id`);
}
