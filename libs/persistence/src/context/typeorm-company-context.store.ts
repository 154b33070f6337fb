import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import {
  CompanyContextStore,
  isProviderKind,
  type CompanyContext,
  type ProviderAccount,
  type ProviderDepartment,
  type ProviderEmployee,
  type ProviderInactiveSupplier,
  type ProviderVatType,
  type ProviderVoucherType,
} from '@app/domain';

interface Snapshot {
  accounts?: ProviderAccount[];
  departments?: ProviderDepartment[];
  vatTypes?: ProviderVatType[];
  employees?: ProviderEmployee[];
  voucherTypes?: ProviderVoucherType[];
  inactiveSuppliers?: ProviderInactiveSupplier[];
}

interface ContextSqlRow {
  company_id: string;
  provider: string;
  snapshot: Snapshot;
  fetched_at: Date;
}

/** The cached company context in `company_context` (one jsonb snapshot per company). */
@Injectable()
export class TypeOrmCompanyContextStore extends CompanyContextStore {
  constructor(private readonly manager: EntityManager) {
    super();
  }

  async get(companyId: string): Promise<CompanyContext | null> {
    const rows: ContextSqlRow[] = await this.manager.query(
      'SELECT company_id, provider, snapshot, fetched_at FROM company_context WHERE company_id = $1',
      [companyId],
    );
    const row = rows[0];
    if (!row || !isProviderKind(row.provider)) return null;
    return {
      companyId: row.company_id,
      provider: row.provider,
      accounts: row.snapshot.accounts ?? [],
      departments: row.snapshot.departments ?? [],
      vatTypes: row.snapshot.vatTypes ?? [],
      employees: row.snapshot.employees ?? [],
      voucherTypes: row.snapshot.voucherTypes ?? [],
      inactiveSuppliers: row.snapshot.inactiveSuppliers ?? [],
      fetchedAt: new Date(row.fetched_at),
    };
  }

  async save(context: CompanyContext): Promise<void> {
    const snapshot: Snapshot = {
      accounts: [...context.accounts],
      departments: [...context.departments],
      vatTypes: [...context.vatTypes],
      employees: [...context.employees],
      voucherTypes: [...context.voucherTypes],
      inactiveSuppliers: [...context.inactiveSuppliers],
    };
    await this.manager.query(
      `INSERT INTO company_context (company_id, provider, snapshot, fetched_at) VALUES ($1, $2, $3::jsonb, $4)
       ON CONFLICT (company_id) DO UPDATE
         SET provider = EXCLUDED.provider, snapshot = EXCLUDED.snapshot, fetched_at = EXCLUDED.fetched_at`,
      [context.companyId, context.provider, JSON.stringify(snapshot), context.fetchedAt],
    );
  }
}
