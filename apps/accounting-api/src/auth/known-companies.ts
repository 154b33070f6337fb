import { Injectable } from '@nestjs/common';
import { CompanyRepository } from '@app/domain';

/** How long a company known to exist is remembered. Companies are never deleted while serving. */
const TTL_MS = 60_000;

/**
 * The guard's company check (§2 check 4) without a database round trip on the hot path: a
 * company seen to exist is remembered for a minute. Unknown ids are not remembered, so a company
 * created a moment ago is accepted at once.
 */
@Injectable()
export class KnownCompanies {
  private readonly known = new Map<string, number>();

  constructor(private readonly companies: CompanyRepository) {}

  async exists(id: string): Promise<boolean> {
    const until = this.known.get(id);
    if (until !== undefined && until > Date.now()) return true;
    const exists = await this.companies.exists(id);
    if (exists) {
      if (this.known.size > 100_000) this.known.clear();
      this.known.set(id, Date.now() + TTL_MS);
    } else {
      this.known.delete(id);
    }
    return exists;
  }

  forget(id: string): void {
    this.known.delete(id);
  }
}
