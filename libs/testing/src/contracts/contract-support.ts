import { randomUUID } from 'node:crypto';

/**
 * Options every port contract accepts. Adapters backed by a shared database run the same tests:
 * every test works in companies and chains of its own (fresh UUIDs and company slugs), so a database
 * that keeps data between runs still gives clean results.
 */
export interface ContractOptions {
  /** Called with every company id a test uses before it touches the adapter (create the company row). */
  readonly prepareCompany?: (companyId: string) => Promise<void>;
  /** Called after each test. */
  readonly teardown?: () => Promise<void>;
}

/** A company id unique to this run, valid as a company slug (^[a-z0-9][a-z0-9-]{0,62}$). */
export function uniqueCompanyId(label = 'co'): string {
  return `${label}-${randomUUID()}`;
}

export function uniqueId(): string {
  return randomUUID();
}

export async function companies(options: ContractOptions, count: number): Promise<string[]> {
  const ids = Array.from({ length: count }, () => uniqueCompanyId());
  for (const id of ids) await options.prepareCompany?.(id);
  return ids;
}
