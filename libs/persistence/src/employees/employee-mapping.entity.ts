import { EntitySchema } from 'typeorm';

export interface EmployeeMappingRow {
  companyId: string;
  userId: string;
  email: string;
  role: string;
  providerEmployeeId: string | null;
  defaultDepartmentId: string | null;
  createdAt: Date;
  updatedAt: Date;
}

/** `employee_mappings`: a company's users (spec §2.6). */
export const EmployeeMappingEntity = new EntitySchema<EmployeeMappingRow>({
  name: 'EmployeeMapping',
  tableName: 'employee_mappings',
  columns: {
    companyId: { type: 'text', primary: true, name: 'company_id' },
    userId: { type: 'text', primary: true, name: 'user_id' },
    email: { type: 'text' },
    role: { type: 'text' },
    providerEmployeeId: { type: 'text', name: 'provider_employee_id', nullable: true },
    defaultDepartmentId: { type: 'text', name: 'default_department_id', nullable: true },
    createdAt: { type: 'timestamptz', name: 'created_at' },
    updatedAt: { type: 'timestamptz', name: 'updated_at' },
  },
});

export interface ExternalIdentityRow {
  companyId: string;
  channel: string;
  externalId: string;
  userId: string;
}

/** `employee_external_identities`: who a chat or mail identity is, per company. */
export const ExternalIdentityEntity = new EntitySchema<ExternalIdentityRow>({
  name: 'EmployeeExternalIdentity',
  tableName: 'employee_external_identities',
  columns: {
    companyId: { type: 'text', primary: true, name: 'company_id' },
    channel: { type: 'text', primary: true },
    externalId: { type: 'text', primary: true, name: 'external_id' },
    userId: { type: 'text', name: 'user_id' },
  },
});
