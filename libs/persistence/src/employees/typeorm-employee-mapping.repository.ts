import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import {
  EmployeeMappingConflict,
  EmployeeMappingRepository,
  type Channel,
  type EmployeeMapping,
  type EmployeeMappingInput,
  type ExternalIdentity,
  type Role,
} from '@app/domain';
import { execute, inTransaction, isUniqueViolation } from '../shared/sql';

interface MappingSqlRow {
  company_id: string;
  user_id: string;
  email: string;
  role: string;
  provider_employee_id: string | null;
  default_department_id: string | null;
  created_at: Date;
  updated_at: Date;
  identities: ExternalIdentity[] | null;
}

const SELECT_MAPPING = `
  SELECT m.company_id, m.user_id, m.email, m.role, m.provider_employee_id, m.default_department_id, m.created_at, m.updated_at,
         (SELECT json_agg(json_build_object('channel', i.channel, 'externalId', i.external_id)
                          ORDER BY i.channel, i.external_id)
            FROM employee_external_identities i
           WHERE i.company_id = m.company_id AND i.user_id = m.user_id) AS identities
    FROM employee_mappings m`;

/** Employee mappings in `employee_mappings` + `employee_external_identities`. */
@Injectable()
export class TypeOrmEmployeeMappingRepository extends EmployeeMappingRepository {
  constructor(private readonly manager: EntityManager) {
    super();
  }

  async list(companyId: string, afterUserId: string | null, limit: number): Promise<EmployeeMapping[]> {
    const rows: MappingSqlRow[] = await this.manager.query(
      `${SELECT_MAPPING} WHERE m.company_id = $1 AND ($2::text IS NULL OR m.user_id > $2) ORDER BY m.user_id LIMIT $3`,
      [companyId, afterUserId, limit],
    );
    return rows.map(toMapping);
  }

  async find(companyId: string, userId: string): Promise<EmployeeMapping | null> {
    return this.one(this.manager, `${SELECT_MAPPING} WHERE m.company_id = $1 AND m.user_id = $2`, [companyId, userId]);
  }

  async findByExternalIdentity(
    companyId: string,
    channel: Channel,
    externalId: string,
  ): Promise<EmployeeMapping | null> {
    return this.one(
      this.manager,
      `${SELECT_MAPPING} JOIN employee_external_identities x ON x.company_id = m.company_id AND x.user_id = m.user_id
        WHERE m.company_id = $1 AND x.channel = $2 AND x.external_id = $3`,
      [companyId, channel, externalId],
    );
  }

  async findByEmail(companyId: string, email: string): Promise<EmployeeMapping | null> {
    return this.one(this.manager, `${SELECT_MAPPING} WHERE m.company_id = $1 AND m.email = $2`, [
      companyId,
      email.trim().toLowerCase(),
    ]);
  }

  async save(
    companyId: string,
    userId: string,
    input: EmployeeMappingInput,
    now: Date,
  ): Promise<{ mapping: EmployeeMapping; created: boolean }> {
    try {
      return await inTransaction(this.manager, async (tx) => {
        const existing: unknown[] = await tx.query(
          'SELECT 1 FROM employee_mappings WHERE company_id = $1 AND user_id = $2 FOR UPDATE',
          [companyId, userId],
        );
        await this.refuseTaken(tx, companyId, userId, input);
        await tx.query(
          `INSERT INTO employee_mappings
             (company_id, user_id, email, role, provider_employee_id, default_department_id, created_at, updated_at)
           VALUES ($1, $2, $3, $4, $5, $7, $6, $6)
           ON CONFLICT (company_id, user_id) DO UPDATE
             SET email = EXCLUDED.email, role = EXCLUDED.role,
                 provider_employee_id = EXCLUDED.provider_employee_id,
                 default_department_id = EXCLUDED.default_department_id, updated_at = EXCLUDED.updated_at`,
          [companyId, userId, input.email, input.role, input.providerEmployeeId, now, input.defaultDepartmentId],
        );
        await tx.query('DELETE FROM employee_external_identities WHERE company_id = $1 AND user_id = $2', [
          companyId,
          userId,
        ]);
        for (const identity of input.externalIdentities) {
          await tx.query(
            'INSERT INTO employee_external_identities (company_id, channel, external_id, user_id) VALUES ($1, $2, $3, $4)',
            [companyId, identity.channel, identity.externalId, userId],
          );
        }
        const mapping = await this.one(tx, `${SELECT_MAPPING} WHERE m.company_id = $1 AND m.user_id = $2`, [
          companyId,
          userId,
        ]);
        return { mapping: mapping!, created: existing.length === 0 };
      });
    } catch (error) {
      // Another request took the email or an identity between our check and our insert.
      if (isUniqueViolation(error, 'employee_mappings_email_unique')) {
        throw new EmployeeMappingConflict('email', `${input.email} is already mapped to another user of the company`);
      }
      if (isUniqueViolation(error, 'employee_external_identities_pkey')) {
        throw new EmployeeMappingConflict(
          'externalIdentities',
          'an external identity is already mapped to another user of the company',
        );
      }
      throw error;
    }
  }

  async delete(companyId: string, userId: string): Promise<boolean> {
    const { affected } = await execute(
      this.manager,
      'DELETE FROM employee_mappings WHERE company_id = $1 AND user_id = $2',
      [companyId, userId],
    );
    return affected > 0;
  }

  private async refuseTaken(
    tx: EntityManager,
    companyId: string,
    userId: string,
    input: EmployeeMappingInput,
  ): Promise<void> {
    const owner: Array<{ user_id: string }> = await tx.query(
      'SELECT user_id FROM employee_mappings WHERE company_id = $1 AND email = $2 AND user_id <> $3',
      [companyId, input.email, userId],
    );
    if (owner.length > 0) {
      throw new EmployeeMappingConflict('email', `${input.email} is already mapped to another user of the company`);
    }
    for (const identity of input.externalIdentities) {
      const taken: Array<{ user_id: string }> = await tx.query(
        `SELECT user_id FROM employee_external_identities
          WHERE company_id = $1 AND channel = $2 AND external_id = $3 AND user_id <> $4`,
        [companyId, identity.channel, identity.externalId, userId],
      );
      if (taken.length > 0) {
        throw new EmployeeMappingConflict(
          'externalIdentities',
          `${identity.channel} identity ${identity.externalId} is already mapped to another user of the company`,
        );
      }
    }
  }

  private async one(manager: EntityManager, sql: string, parameters: unknown[]): Promise<EmployeeMapping | null> {
    const rows: MappingSqlRow[] = await manager.query(sql, parameters);
    return rows[0] ? toMapping(rows[0]) : null;
  }
}

function toMapping(row: MappingSqlRow): EmployeeMapping {
  return {
    companyId: row.company_id,
    userId: row.user_id,
    email: row.email,
    role: row.role as Role,
    externalIdentities: row.identities ?? [],
    providerEmployeeId: row.provider_employee_id,
    defaultDepartmentId: row.default_department_id,
    createdAt: new Date(row.created_at),
    updatedAt: new Date(row.updated_at),
  };
}
