import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Which event types exist is the domain's to say (`EVENT_TYPE_TABLE` in
 * libs/domain/src/events/domain-event.ts, checked when an event is written), not the schema's: the
 * `type IN (…)` check becomes a check of the type's shape, so that a new event type needs no
 * migration. Existing rows all have one of the seven listed types, which have that shape.
 */
export class EventTypeShape1764280000001 implements MigrationInterface {
  name = 'EventTypeShape1764280000001';

  async up(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE events DROP CONSTRAINT events_type_check');
    await q.query(`ALTER TABLE events ADD CONSTRAINT events_type_check CHECK (type ~ '^[A-Z][A-Za-z]{0,63}$')`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE events DROP CONSTRAINT events_type_check');
    await q.query(`
      ALTER TABLE events ADD CONSTRAINT events_type_check CHECK (type IN ('Proposed', 'Approved', 'Rejected',
        'Executed', 'ExecutionFailed', 'PatternSaved', 'PatternRetired'))`);
  }
}
