import { ValidationFailed } from '../errors/domain-error';

/** A company the service works for. Tokens name it in `company_id`. */
export interface Company {
  id: string;
  name: string;
  createdAt: Date;
}

const COMPANY_ID = /^[a-z0-9][a-z0-9-]{0,62}$/;

/** Company ids are short, lowercase slugs: they appear in tokens, logs and URLs. */
export function assertCompanyId(id: string): void {
  if (!COMPANY_ID.test(id)) {
    throw new ValidationFailed('company id must be 1–63 lowercase letters, digits or dashes', [
      { field: 'id', message: 'must match ^[a-z0-9][a-z0-9-]{0,62}$' },
    ]);
  }
}

export function assertCompanyName(name: string): void {
  if (name.trim().length === 0 || name.length > 200) {
    throw new ValidationFailed('company name must be 1–200 characters', [
      { field: 'name', message: 'must be 1–200 characters' },
    ]);
  }
}

/**
 * An operator's deletion of a company, as the deletion log keeps it: the log outlives the company,
 * so it names the company and who deleted it by value.
 */
export interface CompanyDeletion {
  readonly id: string;
  readonly companyId: string;
  readonly companyName: string;
  /** Who deleted it: the operator the CLI names (`--actor`, by default the OS user). */
  readonly actor: string;
  readonly deletedAt: Date;
  /**
   * How many audit events the company has: when there are any, its record stays with them (the
   * audit trail is never deleted) and only its key and connection go; 0 means the record went too.
   */
  readonly auditEventsKept: number;
}
