import type { EntityManager } from 'typeorm';
import { WrappedDekRepository, type WrappedDek, type WrappedDekRecord } from '@app/vault';
import { execute, select } from '../shared/sql';

interface CompanyKeyRecord {
  company_id: string;
  wrapped_dek: Buffer;
  kek_id: string;
}

function fromRecord(row: CompanyKeyRecord): WrappedDekRecord {
  return { companyId: row.company_id, wrapped: Buffer.from(row.wrapped_dek), kekId: row.kek_id };
}

/**
 * WrappedDekRepository over `company_keys`. `insertIfAbsent` never overwrites (ON CONFLICT DO
 * NOTHING, then reads the stored row, so racing creators converge on one DEK); `replaceWrapping`
 * is a compare-and-set on the stored wrapped bytes, so it can neither resurrect a deleted key nor
 * overwrite a concurrent re-wrap.
 */
export class TypeOrmWrappedDekRepository extends WrappedDekRepository {
  constructor(private readonly manager: EntityManager) {
    super();
  }

  async find(companyId: string): Promise<WrappedDekRecord | null> {
    const [row] = await select<CompanyKeyRecord>(
      this.manager,
      'SELECT company_id, wrapped_dek, kek_id FROM company_keys WHERE company_id = $1',
      [companyId],
    );
    return row ? fromRecord(row) : null;
  }

  async insertIfAbsent(record: WrappedDekRecord): Promise<WrappedDekRecord> {
    // ON CONFLICT DO NOTHING waits for a concurrent inserter of the same key to commit, so the
    // following read (a new snapshot in READ COMMITTED) sees whichever row won.
    await this.manager.query(
      `INSERT INTO company_keys (company_id, wrapped_dek, kek_id) VALUES ($1, $2, $3)
       ON CONFLICT (company_id) DO NOTHING`,
      [record.companyId, Buffer.from(record.wrapped), record.kekId],
    );
    const stored = await this.find(record.companyId);
    if (!stored) throw new Error(`the key of company ${record.companyId} was deleted while it was being created`);
    return stored;
  }

  async replaceWrapping(companyId: string, previous: WrappedDek, next: WrappedDek): Promise<boolean> {
    const { affected } = await execute(
      this.manager,
      `UPDATE company_keys SET wrapped_dek = $3, kek_id = $4, rotated_at = now()
        WHERE company_id = $1 AND wrapped_dek = $2`,
      [companyId, Buffer.from(previous.wrapped), Buffer.from(next.wrapped), next.kekId],
    );
    return affected === 1;
  }

  async delete(companyId: string): Promise<boolean> {
    const { affected } = await execute(this.manager, 'DELETE FROM company_keys WHERE company_id = $1', [companyId]);
    return affected === 1;
  }

  async listAfter(afterCompanyId: string | null, limit: number): Promise<WrappedDekRecord[]> {
    const rows = await select<CompanyKeyRecord>(
      this.manager,
      `SELECT company_id, wrapped_dek, kek_id FROM company_keys
        WHERE $1::text IS NULL OR company_id > $1 ORDER BY company_id LIMIT $2`,
      [afterCompanyId, Math.max(0, limit)],
    );
    return rows.map(fromRecord);
  }
}
