import { WrappedDekRepository, type WrappedDek, type WrappedDekRecord } from '@app/vault';

/** `WrappedDekRepository` in a Map, for unit tests and use cases; copies bytes in and out like a database. */
export class InMemoryWrappedDekRepository extends WrappedDekRepository {
  private readonly rows = new Map<string, WrappedDekRecord>();

  async find(companyId: string): Promise<WrappedDekRecord | null> {
    const row = this.rows.get(companyId);
    return row ? copy(row) : null;
  }

  async insertIfAbsent(record: WrappedDekRecord): Promise<WrappedDekRecord> {
    const existing = this.rows.get(record.companyId);
    if (existing) return copy(existing);
    this.rows.set(record.companyId, copy(record));
    return copy(record);
  }

  async replaceWrapping(companyId: string, previous: WrappedDek, next: WrappedDek): Promise<boolean> {
    const row = this.rows.get(companyId);
    if (!row || !Buffer.from(row.wrapped).equals(Buffer.from(previous.wrapped))) return false;
    this.rows.set(companyId, copy({ companyId, wrapped: next.wrapped, kekId: next.kekId }));
    return true;
  }

  async delete(companyId: string): Promise<boolean> {
    return this.rows.delete(companyId);
  }

  async listAfter(afterCompanyId: string | null, limit: number): Promise<WrappedDekRecord[]> {
    return [...this.rows.keys()]
      .sort()
      .filter((companyId) => afterCompanyId === null || companyId > afterCompanyId)
      .slice(0, limit)
      .map((companyId) => copy(this.rows.get(companyId)!));
  }
}

function copy(record: WrappedDekRecord): WrappedDekRecord {
  return { companyId: record.companyId, wrapped: Buffer.from(record.wrapped), kekId: record.kekId };
}
