import { Injectable } from '@nestjs/common';
import { DataSource, IsNull } from 'typeorm';
import { CompanyRepository, type Company } from '@app/domain';
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
}

function toCompany(row: CompanyRow): Company {
  return { id: row.id, name: row.name, createdAt: row.createdAt };
}
