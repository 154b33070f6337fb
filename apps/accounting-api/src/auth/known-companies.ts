import { Injectable } from '@nestjs/common';
import { LRUCache } from 'lru-cache';
import { CompanyRepository } from '@app/domain';

/** How long a company known to exist is remembered. Companies are never deleted while serving. */
const TTL_MS = 60_000;
/** Companies remembered at once; the least recently seen go first. */
const MAX_COMPANIES = 100_000;

/**
 * The guard's company check (docs/api.md §2 check 4) without a database round trip on the hot
 * path: a company seen to exist is remembered for a minute. Unknown ids are not remembered, so a
 * company created a moment ago is accepted at once.
 */
@Injectable()
export class KnownCompanies {
  private readonly known = new LRUCache<string, true>({ max: MAX_COMPANIES, ttl: TTL_MS });

  constructor(private readonly companies: CompanyRepository) {}

  async exists(id: string): Promise<boolean> {
    if (this.known.get(id)) return true;
    const exists = await this.companies.exists(id);
    if (exists) this.known.set(id, true);
    else this.known.delete(id);
    return exists;
  }

  forget(id: string): void {
    this.known.delete(id);
  }
}
