import type { ProviderConnection } from '@app/domain';

/**
 * A company's connection to Fiken. Its OAuth tokens are read and rotated through the
 * `ProviderTokenStore` port (keyed by `companyId`), never carried here.
 */
export interface FikenConnection extends ProviderConnection {
  readonly provider: 'fiken';
  /** e.g. `https://fiken.no/oauth/token`. */
  readonly tokenUrl: string;
  /** The company's slug at Fiken: every API path lives under `/companies/{companySlug}`. */
  readonly companySlug: string;
}

export function asFikenConnection(conn: ProviderConnection): FikenConnection {
  if (conn.provider !== 'fiken') {
    throw new Error(`FikenProvider was given a ${conn.provider} connection`);
  }
  return conn as FikenConnection;
}
