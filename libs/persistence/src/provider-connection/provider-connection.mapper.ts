import { isProviderKind, type ConnectionStatus, type ProviderConnectionRecord } from '@app/domain';

/** The columns of a connection without its secrets. */
export const CONNECTION_COLUMNS = `company_id, provider, status, external_company_id, external_company_name,
  access_token_expires_at, reauthorization_reason, connected_by, connected_at, updated_at`;

export interface ConnectionSqlRow {
  company_id: string;
  provider: string;
  status: string;
  external_company_id: string | null;
  external_company_name: string | null;
  access_token_expires_at: Date | null;
  reauthorization_reason: string | null;
  connected_by: string;
  connected_at: Date;
  updated_at: Date;
}

export function toRecord(row: ConnectionSqlRow): ProviderConnectionRecord {
  if (!isProviderKind(row.provider))
    throw new Error(`provider_connections holds an unknown provider "${row.provider}"`);
  return {
    companyId: row.company_id,
    provider: row.provider,
    status: row.status as ConnectionStatus,
    externalCompanyId: row.external_company_id,
    externalCompanyName: row.external_company_name,
    accessTokenExpiresAt: row.access_token_expires_at ? new Date(row.access_token_expires_at) : null,
    reauthorizationReason: row.reauthorization_reason,
    connectedBy: row.connected_by,
    connectedAt: new Date(row.connected_at),
    updatedAt: new Date(row.updated_at),
  };
}
