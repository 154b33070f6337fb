import type { Company, CompanyDeletion } from '../company/company';

/** The companies the service knows. */
export abstract class CompanyRepository {
  /**
   * True when a company with this id exists and was not deleted (a deleted company whose record
   * stays for its audit events does not). Hot path of every request's guard.
   */
  abstract exists(id: string): Promise<boolean>;
  abstract findById(id: string): Promise<Company | null>;
  /** Creates the company; returns false (and changes nothing) when the id is taken. */
  abstract create(company: { id: string; name: string }): Promise<boolean>;
  abstract list(): Promise<Company[]>;

  /**
   * In one transaction: removes the company's provider connection and console sessions, then its record with everything
   * that belongs to it — unless audit events reference it: then the record stays, marked deleted
   * (`exists` is false from now on) — and appends
   * `deletion` (with the number of audit events kept) to the deletion log. Returns what was logged.
   */
  abstract delete(deletion: Omit<CompanyDeletion, 'auditEventsKept'>): Promise<CompanyDeletion>;

  /** The deletion log, oldest first: it outlives the companies it names. */
  abstract deletions(): Promise<CompanyDeletion[]>;
}
