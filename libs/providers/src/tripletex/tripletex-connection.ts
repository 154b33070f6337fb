import type { ProviderConnection } from '@app/domain';

/**
 * A company's connection to Tripletex. The employee token is the company's secret: it is read
 * (decrypted from the vault) only when a session has to be created, and never kept beyond that.
 * The consumer token is the application's own and lives in the adapter's configuration.
 */
export interface TripletexConnection extends ProviderConnection {
  readonly provider: 'tripletex';
  readonly credentials: {
    /**
     * Which stored credentials these are: a new connection of the company (a reconnect, perhaps to
     * another Tripletex company or employee) has a new version, so that nothing made from the old
     * ones — a cached session — is used for it.
     */
    readonly version: string;
    employeeToken(): Promise<string>;
  };
}

export function asTripletexConnection(conn: ProviderConnection): TripletexConnection {
  if (conn.provider !== 'tripletex') {
    throw new Error(`TripletexProvider was given a ${conn.provider} connection`);
  }
  return conn as TripletexConnection;
}
