import { Injectable } from '@nestjs/common';
import { DataSource, IsNull } from 'typeorm';
import { CompanyRepository, type Company, type CompanyDeletion } from '@app/domain';
import { TypeOrmConsoleSessionStore } from '../console/typeorm-console-session.store';
import { select, toNumber } from '../shared/sql';
import { CompanyEntity, type CompanyRow } from './company.entity';

@Injectable()
export class TypeOrmCompanyRepository extends CompanyRepository {
  constructor(private readonly dataSource: DataSource) {
    super();
  }

  private get repo() {
    return this.dataSource.getRepository<CompanyRow>(CompanyEntity);
  }

  async exists(id: string): Promise<boolean> {
    // A company deleted but kept for its audit events does not exist for the guard.
    return this.repo.exists({ where: { id, deletedAt: IsNull() } });
  }

  async findById(id: string): Promise<Company | null> {
    const row = await this.repo.findOneBy({ id });
    return row && toCompany(row);
  }

  async create(company: { id: string; name: string }): Promise<boolean> {
    const inserted: unknown[] = await this.dataSource.query(
      'INSERT INTO companies (id, name) VALUES ($1, $2) ON CONFLICT (id) DO NOTHING RETURNING id',
      [company.id, company.name],
    );
    return inserted.length === 1;
  }

  async list(): Promise<Company[]> {
    return (await this.repo.find({ order: { id: 'ASC' } })).map(toCompany);
  }

  async delete(deletion: Omit<CompanyDeletion, 'auditEventsKept'>): Promise<CompanyDeletion> {
    return this.dataSource.transaction(async (manager) => {
      await manager.query('DELETE FROM provider_connections WHERE company_id = $1', [deletion.companyId]);
      const [{ events }] = await select<{ events: number | string }>(
        manager,
        'SELECT count(*) AS events FROM events WHERE company_id = $1',
        [deletion.companyId],
      );
      const auditEventsKept = toNumber(events);
      // Console sessions end with the company, even when its record stays for its events.
      await new TypeOrmConsoleSessionStore(manager).endCompanySessions(deletion.companyId);
      // Audit events reference the company (the audit trail is never deleted): then the record stays,
      // marked deleted, and `exists` refuses its tokens from now on.
      if (auditEventsKept === 0) await manager.query('DELETE FROM companies WHERE id = $1', [deletion.companyId]);
      else {
        await manager.query('UPDATE companies SET deleted_at = $2 WHERE id = $1', [
          deletion.companyId,
          deletion.deletedAt,
        ]);
      }
      await manager.query(
        `INSERT INTO company_deletions (id, company_id, company_name, actor, deleted_at, audit_events_kept)
         VALUES ($1, $2, $3, $4, $5, $6)`,
        [deletion.id, deletion.companyId, deletion.companyName, deletion.actor, deletion.deletedAt, auditEventsKept],
      );
      return { ...deletion, auditEventsKept };
    });
  }

  async deletions(): Promise<CompanyDeletion[]> {
    const rows = await select<{
      id: string;
      company_id: string;
      company_name: string;
      actor: string;
      deleted_at: Date;
      audit_events_kept: number | string;
    }>(
      this.dataSource.manager,
      `SELECT id, company_id, company_name, actor, deleted_at, audit_events_kept
         FROM company_deletions ORDER BY deleted_at, id`,
    );
    return rows.map((row) => ({
      id: row.id,
      companyId: row.company_id,
      companyName: row.company_name,
      actor: row.actor,
      deletedAt: new Date(row.deleted_at),
      auditEventsKept: toNumber(row.audit_events_kept),
    }));
  }
}

function toCompany(row: CompanyRow): Company {
  return { id: row.id, name: row.name, createdAt: row.createdAt };
}
