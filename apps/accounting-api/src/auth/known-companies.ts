import { Injectable } from '@nestjs/common';
import { LRUCache } from 'lru-cache';
import { CompanyRepository } from '@app/domain';
import { AppConfig } from '../config/app-config';

/** Companies remembered at once; the least recently seen go first. */
const MAX_COMPANIES = 100_000;

/**
 * The guard's company check (docs/api.md §2 check 4) without a database round trip on every
 * request: a company seen to exist is remembered for COMPANY_CACHE_TTL_MS (5 s by default, the
 * staleness every per-instance company cache is allowed). That bound is what makes it correct: a
 * company deleted (`company delete`, on any instance or from the CLI) has its tokens refused
 * everywhere within it. Unknown ids are not remembered, so a company created a moment ago is
 * accepted at once. Bounded at 100 000 entries (lru-cache). Concurrent misses of a known id share
 * one statement.
 */
@Injectable()
export class KnownCompanies {
  private readonly known: LRUCache<string, true> | null;
  private readonly lookups = new Map<string, Promise<boolean>>();

  constructor(
    private readonly companies: CompanyRepository,
    config: AppConfig,
  ) {
    this.known =
      config.companyCacheTtlMs > 0 ? new LRUCache({ max: MAX_COMPANIES, ttl: config.companyCacheTtlMs }) : null;
  }

  async exists(id: string): Promise<boolean> {
    if (this.known?.get(id)) return true;
    // Requests that miss together share one look-up: when the entry of a busy company expires,
    // the requests in flight would otherwise each send the same statement at once. A shared "yes"
    // is as good as the cache's; a shared "no" may predate this request (a company created a
    // moment ago), so this request asks again itself.
    const shared = this.lookups.get(id);
    if (shared) return (await shared) || this.lookUp(id);
    const lookup = this.lookUp(id).finally(() => this.lookups.delete(id));
    this.lookups.set(id, lookup);
    return lookup;
  }

  private async lookUp(id: string): Promise<boolean> {
    const exists = await this.companies.exists(id);
    if (exists) this.known?.set(id, true);
    else this.known?.delete(id);
    return exists;
  }
}
