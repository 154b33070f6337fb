import { CompanyContextStore, CompanySettingsStore, type CompanyContext, type CompanySettings } from '@app/domain';
import { TtlCache } from './ttl-cache';

/**
 * Company settings, read through a per-process cache: every proposal reads them, they change
 * rarely. A save through this store is seen at once by this process; another instance's save is
 * seen within the cache's TTL (COMPANY_CACHE_TTL_MS). Cached values are frozen: shared by callers.
 */
export class CachedCompanySettingsStore extends CompanySettingsStore {
  private readonly cache: TtlCache<CompanySettings>;

  constructor(
    private readonly inner: CompanySettingsStore,
    ttlMs: number,
  ) {
    super();
    this.cache = new TtlCache(ttlMs);
  }

  get(companyId: string): Promise<CompanySettings> {
    return this.cache.get(companyId, async () => Object.freeze(await this.inner.get(companyId)));
  }

  async save(companyId: string, settings: CompanySettings): Promise<void> {
    try {
      await this.inner.save(companyId, settings);
    } finally {
      this.cache.delete(companyId);
    }
  }
}

/** The company context (chart of accounts, VAT types, …) through the same kind of cache. */
export class CachedCompanyContextStore extends CompanyContextStore {
  private readonly cache: TtlCache<CompanyContext | null>;

  constructor(
    private readonly inner: CompanyContextStore,
    ttlMs: number,
  ) {
    super();
    this.cache = new TtlCache(ttlMs);
  }

  get(companyId: string): Promise<CompanyContext | null> {
    return this.cache.get(companyId, async () => freezeContext(await this.inner.get(companyId)));
  }

  async save(context: CompanyContext): Promise<void> {
    try {
      await this.inner.save(context);
    } finally {
      this.cache.delete(context.companyId);
    }
  }
}

function freezeContext(context: CompanyContext | null): CompanyContext | null {
  if (!context) return null;
  for (const list of [context.accounts, context.departments, context.vatTypes, context.employees]) {
    for (const item of list) Object.freeze(item);
    Object.freeze(list);
  }
  return Object.freeze(context);
}
