import { CompanyContextStore, type CompanyContext } from '@app/domain';
import { copy } from './snapshottable';

/** The company contexts (charts) fetched so far, in a map; each read and save is a copy. */
export class InMemoryCompanyContextStore extends CompanyContextStore {
  private readonly contexts = new Map<string, CompanyContext>();

  async get(companyId: string): Promise<CompanyContext | null> {
    const context = this.contexts.get(companyId);
    return context ? copy(context) : null;
  }

  async save(context: CompanyContext): Promise<void> {
    this.contexts.set(context.companyId, copy(context));
  }
}
