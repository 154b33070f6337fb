import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The web console's way in:
 * - `console_links`: one-time login links, by the SHA-256 digest of their secret; `used_at` is set
 *   when one is opened, so a second opening is told "used" rather than "unknown".
 * - `console_sessions`: the browser sessions those links opened, by the digest of the cookie's
 *   secret; logging out or deleting the company deletes them.
 * Both carry the identity of the gateway token that asked for the link (company, actor, role,
 * permissions). Neither belongs to the audit trail: the application reads and writes them.
 */
export class CreateConsoleSessions1764210000001 implements MigrationInterface {
  name = 'CreateConsoleSessions1764210000001';

  async up(q: QueryRunner): Promise<void> {
    for (const table of ['console_links', 'console_sessions']) {
      await q.query(`
        CREATE TABLE ${table} (
          digest      text PRIMARY KEY,
          company_id  text NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
          actor       text NOT NULL,
          role        text NOT NULL,
          permissions text[] NOT NULL,
          created_at  timestamptz NOT NULL,
          expires_at  timestamptz NOT NULL
        )
      `);
      await q.query(`CREATE INDEX ${table}_company ON ${table} (company_id)`);
      await q.query(`CREATE INDEX ${table}_expires_at ON ${table} (expires_at)`);
    }
    await q.query('ALTER TABLE console_links ADD COLUMN used_at timestamptz NULL');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE console_sessions');
    await q.query('DROP TABLE console_links');
  }
}
