import { Injectable } from '@nestjs/common';
import {
  AccountingProvider,
  Clock,
  CompanyContextStore,
  type CompanyContext,
  type ProviderConnectionRecord,
} from '@app/domain';
import { ProviderConnections } from '../onboarding/provider-connections';

/**
 * The company context (spec §2.5, onboarding step 8): fetched from the provider at onboarding and
 * on refresh, served from the cache otherwise. A connected company whose context was never fetched
 * (the provider was down at onboarding) gets it fetched on first read.
 */
@Injectable()
export class CompanyContextService {
  constructor(
    private readonly store: CompanyContextStore,
    private readonly connections: ProviderConnections,
    private readonly provider: AccountingProvider,
    private readonly clock: Clock,
  ) {}

  /** The cached context of the company's connected provider; 409 provider_not_connected without one. */
  async current(companyId: string): Promise<CompanyContext> {
    const { record } = await this.connections.require(companyId);
    const cached = await this.store.get(companyId);
    if (cached && cached.provider === record.provider) return cached;
    return this.fetch(record);
  }

  /** The cached context, as last fetched (from any provider); null before the first fetch. Never calls the provider. */
  cached(companyId: string): Promise<CompanyContext | null> {
    return this.store.get(companyId);
  }

  /** Fetches the context again from the provider and caches it. */
  async refresh(companyId: string): Promise<CompanyContext> {
    const { record } = await this.connections.require(companyId);
    return this.fetch(record);
  }

  /** Fetches and caches the context of a connection just made. */
  async fetch(record: ProviderConnectionRecord): Promise<CompanyContext> {
    const connection = this.connections.connectionOf(record);
    const fetched = await this.connections.call(record.companyId, () => this.provider.fetchContext(connection));
    const context: CompanyContext = {
      companyId: record.companyId,
      provider: record.provider,
      accounts: fetched.accounts,
      departments: fetched.departments,
      vatTypes: fetched.vatTypes,
      employees: fetched.employees,
      voucherTypes: fetched.voucherTypes,
      inactiveSuppliers: fetched.inactiveSuppliers,
      fetchedAt: this.clock.now(),
    };
    await this.store.save(context);
    return context;
  }
}
