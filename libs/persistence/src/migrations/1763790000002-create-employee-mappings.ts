import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The spec's employee_mapping (§2.6): a company's users with their email, role and provider
 * employee id, and the external identities (chat user ids, addresses) the gateway resolves.
 * An email and an external identity each belong to at most one user of a company.
 */
export class CreateEmployeeMappings1763790000002 implements MigrationInterface {
  name = 'CreateEmployeeMappings1763790000002';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE employee_mappings (
        company_id           text NOT NULL REFERENCES companies (id) ON DELETE CASCADE,
        user_id              text NOT NULL CHECK (length(user_id) BETWEEN 1 AND 128),
        email                text NOT NULL CHECK (email = lower(email)),
        role                 text NOT NULL CHECK (role IN ('employee', 'manager', 'accountant', 'admin')),
        provider_employee_id text NULL,
        created_at           timestamptz NOT NULL,
        updated_at           timestamptz NOT NULL,
        PRIMARY KEY (company_id, user_id),
        CONSTRAINT employee_mappings_email_unique UNIQUE (company_id, email)
      )`);
    await q.query(`
      CREATE TABLE employee_external_identities (
        company_id   text NOT NULL,
        channel      text NOT NULL CHECK (channel IN ('slack', 'discord', 'teams', 'web', 'email')),
        external_id  text NOT NULL CHECK (length(external_id) BETWEEN 1 AND 255),
        user_id      text NOT NULL,
        CONSTRAINT employee_external_identities_pkey PRIMARY KEY (company_id, channel, external_id),
        FOREIGN KEY (company_id, user_id) REFERENCES employee_mappings (company_id, user_id) ON DELETE CASCADE
      )`);
    await q.query(
      'CREATE INDEX employee_external_identities_user ON employee_external_identities (company_id, user_id)',
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE employee_external_identities');
    await q.query('DROP TABLE employee_mappings');
  }
}
