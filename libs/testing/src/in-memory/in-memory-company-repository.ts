import { Clock, CompanyRepository, type Company, type CompanyDeletion } from '@app/domain';
import type { InMemoryEventStore } from './in-memory-event-store';
import type { InMemoryProviderConnectionRepository } from './in-memory-provider-connection-repository';
import { copy } from './snapshottable';

/** The other in-memory stores a company's deletion looks at, as the database's tables are. */
export interface CompanyNeighbours {
  readonly events?: Pick<InMemoryEventStore, 'all'>;
  readonly connections?: Pick<InMemoryProviderConnectionRepository, 'remove'>;
}

/** CompanyRepository in a map. Same contract as the TypeORM adapter (company-repository.contract.ts). */
export class InMemoryCompanyRepository extends CompanyRepository {
  private readonly companies = new Map<string, Company>();
  private readonly log: CompanyDeletion[] = [];
  /** Companies deleted but kept for their audit events: they no longer exist for the guard. */
  private readonly deleted = new Set<string>();

  constructor(
    private readonly clock: Clock,
    private readonly neighbours: CompanyNeighbours = {},
  ) {
    super();
  }

  async exists(id: string): Promise<boolean> {
    return this.companies.has(id) && !this.deleted.has(id);
  }

  async findById(id: string): Promise<Company | null> {
    const company = this.companies.get(id);
    return company ? copy(company) : null;
  }

  async create(company: { id: string; name: string }): Promise<boolean> {
    if (this.companies.has(company.id)) return false;
    this.deleted.delete(company.id);
    this.companies.set(company.id, { id: company.id, name: company.name, createdAt: this.clock.now() });
    return true;
  }

  async list(): Promise<Company[]> {
    return [...this.companies.values()].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)).map(copy);
  }

  async delete(deletion: Omit<CompanyDeletion, 'auditEventsKept'>): Promise<CompanyDeletion> {
    this.neighbours.connections?.remove(deletion.companyId);
    const auditEventsKept = (this.neighbours.events?.all() ?? []).filter(
      (event) => event.company === deletion.companyId,
    ).length;
    if (auditEventsKept === 0) this.companies.delete(deletion.companyId);
    else this.deleted.add(deletion.companyId);
    const logged = { ...copy(deletion), auditEventsKept };
    this.log.push(logged);
    return copy(logged);
  }

  async deletions(): Promise<CompanyDeletion[]> {
    return [...this.log]
      .sort((a, b) => a.deletedAt.getTime() - b.deletedAt.getTime() || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
      .map(copy);
  }
}
