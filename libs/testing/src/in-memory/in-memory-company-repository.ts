import { Clock, CompanyRepository, type Company } from '@app/domain';
import { ManualClock } from '../time/manual-clock';
import { copy } from './snapshottable';

/** CompanyRepository in a map. Same contract as the TypeORM adapter (company-repository.contract.ts). */
export class InMemoryCompanyRepository extends CompanyRepository {
  private readonly companies = new Map<string, Company>();

  constructor(private readonly clock: Clock = new ManualClock()) {
    super();
  }

  async exists(id: string): Promise<boolean> {
    return this.companies.has(id);
  }

  async findById(id: string): Promise<Company | null> {
    const company = this.companies.get(id);
    return company ? copy(company) : null;
  }

  async create(company: { id: string; name: string }): Promise<boolean> {
    if (this.companies.has(company.id)) return false;
    this.companies.set(company.id, { id: company.id, name: company.name, createdAt: this.clock.now() });
    return true;
  }

  async list(): Promise<Company[]> {
    return [...this.companies.values()].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)).map(copy);
  }
}
