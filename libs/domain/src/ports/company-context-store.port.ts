import type { CompanyContext } from '../context/company-context';

/**
 * The cached company context (accounts, departments, VAT types, employees) per company, as last
 * fetched from its provider. Read by the proposal validators (`assertInChart`) and by GET /context.
 */
export abstract class CompanyContextStore {
  /** The company's last fetched context, or null when none was fetched yet. */
  abstract get(companyId: string): Promise<CompanyContext | null>;

  /** Replaces the company's context. */
  abstract save(context: CompanyContext): Promise<void>;
}
