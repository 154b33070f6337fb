import { Injectable } from '@nestjs/common';
import { CompanyRepository } from '@app/domain';
import { AppConfig } from '../config/app-config';

/**
 * The guard's company check (§2 check 4) without a database round trip on every request: a company
 * seen to exist is remembered for COMPANY_CACHE_TTL_MS (5 s by default, the staleness every
 * per-instance company cache is allowed). That bound is what makes it correct: a company deleted
 * (`company delete`, on any instance or from the CLI) has its tokens refused everywhere within it.
 * Unknown ids are not remembered, so a company created a moment ago is accepted at once. Bounded
 * at 100 000 entries.
 */
@Injectable()
export class KnownCompanies {
  private readonly known = new Map<string, number>();
  private readonly ttlMs: number;

  constructor(
    private readonly companies: CompanyRepository,
    config: AppConfig,
  ) {
    this.ttlMs = config.companyCacheTtlMs;
  }

  async exists(id: string): Promise<boolean> {
    const until = this.known.get(id);
    if (until !== undefined && until > Date.now()) return true;
    const exists = await this.companies.exists(id);
    if (exists && this.ttlMs > 0) {
      if (this.known.size > 100_000) this.known.clear();
      this.known.set(id, Date.now() + this.ttlMs);
    } else {
      this.known.delete(id);
    }
    return exists;
  }
}
