import type { Company } from '../company/company';

/** The companies the service knows. */
export abstract class CompanyRepository {
  /** True when a company with this id exists. Hot path of every request's guard. */
  abstract exists(id: string): Promise<boolean>;
  abstract findById(id: string): Promise<Company | null>;
  /** Creates the company; returns false (and changes nothing) when the id is taken. */
  abstract create(company: { id: string; name: string }): Promise<boolean>;
  abstract list(): Promise<Company[]>;
}
