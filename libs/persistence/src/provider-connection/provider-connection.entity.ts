import { EntitySchema } from 'typeorm';

export interface ProviderConnectionRow {
  companyId: string;
  provider: string;
  status: string;
  externalCompanyId: string | null;
  externalCompanyName: string | null;
  employeeToken: Buffer | null;
  accessToken: Buffer | null;
  refreshToken: Buffer | null;
  accessTokenExpiresAt: Date | null;
  reauthorizationReason: string | null;
  connectedBy: string;
  connectedAt: Date;
  updatedAt: Date;
}

/** `provider_connections`: one company's provider and its sealed tokens (see the migration). */
export const ProviderConnectionEntity = new EntitySchema<ProviderConnectionRow>({
  name: 'ProviderConnection',
  tableName: 'provider_connections',
  columns: {
    companyId: { type: 'text', primary: true, name: 'company_id' },
    provider: { type: 'text' },
    status: { type: 'text' },
    externalCompanyId: { type: 'text', name: 'external_company_id', nullable: true },
    externalCompanyName: { type: 'text', name: 'external_company_name', nullable: true },
    employeeToken: { type: 'bytea', name: 'employee_token', nullable: true },
    accessToken: { type: 'bytea', name: 'access_token', nullable: true },
    refreshToken: { type: 'bytea', name: 'refresh_token', nullable: true },
    accessTokenExpiresAt: { type: 'timestamptz', name: 'access_token_expires_at', nullable: true },
    reauthorizationReason: { type: 'text', name: 'reauthorization_reason', nullable: true },
    connectedBy: { type: 'text', name: 'connected_by' },
    connectedAt: { type: 'timestamptz', name: 'connected_at' },
    updatedAt: { type: 'timestamptz', name: 'updated_at' },
  },
});

export interface AuthorizationRequestRow {
  nonce: string;
  companyId: string;
  provider: string;
  actor: string;
  expiresAt: Date;
  createdAt: Date;
}

/** `authorization_requests`: pending onboardings, consumed once by the OAuth callback. */
export const AuthorizationRequestEntity = new EntitySchema<AuthorizationRequestRow>({
  name: 'AuthorizationRequest',
  tableName: 'authorization_requests',
  columns: {
    nonce: { type: 'text', primary: true },
    companyId: { type: 'text', name: 'company_id' },
    provider: { type: 'text' },
    actor: { type: 'text' },
    expiresAt: { type: 'timestamptz', name: 'expires_at' },
    createdAt: { type: 'timestamptz', name: 'created_at', createDate: true },
  },
});
