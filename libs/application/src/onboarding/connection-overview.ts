import { Injectable } from '@nestjs/common';
import {
  CompanyContextStore,
  CompanyRepository,
  EmployeeMappingRepository,
  NotFound,
  ProviderConnectionRepository,
  type Company,
  type ProviderConnectionRecord,
} from '@app/domain';

export interface ConnectionOverviewView {
  readonly company: Company;
  readonly connection: ProviderConnectionRecord | null;
  readonly context: {
    accounts: number;
    departments: number;
    vatTypes: number;
    employees: number;
    fetchedAt: Date;
  } | null;
  /** Mapped employees, up to 200. */
  readonly mappedEmployees: number;
}

/** What the console's company page shows: the company's connection, its cached context, its mapped people. */
@Injectable()
export class ConnectionOverview {
  constructor(
    private readonly companies: CompanyRepository,
    private readonly connections: ProviderConnectionRepository,
    private readonly contexts: CompanyContextStore,
    private readonly employees: EmployeeMappingRepository,
  ) {}

  async execute(companyId: string): Promise<ConnectionOverviewView> {
    const company = await this.companies.findById(companyId);
    if (!company) throw new NotFound('company', companyId);
    const connection = await this.connections.find(companyId);
    const context = await this.contexts.get(companyId);
    const employees = await this.employees.list(companyId, null, 200);
    return {
      company,
      connection,
      context: context
        ? {
            accounts: context.accounts.length,
            departments: context.departments.length,
            vatTypes: context.vatTypes.length,
            employees: context.employees.length,
            fetchedAt: context.fetchedAt,
          }
        : null,
      mappedEmployees: employees.length,
    };
  }
}
