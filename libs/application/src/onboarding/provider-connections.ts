import { Injectable } from '@nestjs/common';
import {
  DomainError,
  ProviderCatalog,
  ProviderConnectionRepository,
  ProviderReauthorizationRequired,
  type ProviderConnection,
  type ProviderConnectionRecord,
  type ProviderKind,
} from '@app/domain';

/** 409 provider_not_connected (docs/api.md §3). */
export class ProviderNotConnected extends DomainError {
  constructor(message: string) {
    super('provider_not_connected', message);
  }
}

/**
 * Turns a company's stored connection into the `ProviderConnection` the adapters call with (its
 * provider's definition builds it). A `token` provider's secret is not read here: the connection
 * opens it from the vault when (and only when) the adapter needs it.
 */
@Injectable()
export class ProviderConnections {
  constructor(
    private readonly connections: ProviderConnectionRepository,
    private readonly catalog: ProviderCatalog,
  ) {}

  /** The company's working connection; 409 provider_not_connected when there is none. */
  async require(
    companyId: string,
    provider?: ProviderKind,
  ): Promise<{ record: ProviderConnectionRecord; connection: ProviderConnection }> {
    const record = await this.connections.find(companyId);
    if (!record) throw new ProviderNotConnected('the company has not connected an accounting provider');
    if (provider !== undefined && record.provider !== provider) {
      throw new ProviderNotConnected(`the company uses ${record.provider}, not ${provider}`);
    }
    if (record.status !== 'connected') {
      throw new ProviderNotConnected(`the company's ${record.provider} connection needs to be authorised again`);
    }
    return { record, connection: this.connectionOf(record) };
  }

  connectionOf(record: ProviderConnectionRecord): ProviderConnection {
    return this.catalog.connectionOf(record, () => this.connections.storedToken(record.companyId, record.provider));
  }

  /**
   * Runs a provider call; when the provider refuses the stored credentials for good, marks the
   * connection as needing re-authorisation before the error propagates (409).
   */
  async call<T>(companyId: string, work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      if (error instanceof ProviderReauthorizationRequired) {
        await this.connections.markNeedsReauthorization(companyId, error.message);
      }
      throw error;
    }
  }
}
