import {
  Clock,
  ProviderConnectionRepository,
  ProviderReauthorizationRequired,
  type NewProviderConnection,
  type ProviderKind,
  type ProviderConnectionRecord,
} from '@app/domain';
import { copy } from './snapshottable';

interface Stored {
  record: ProviderConnectionRecord;
  /** Tripletex's employee token; Fiken's tokens live in the ProviderTokenStore. */
  employeeToken: string | null;
}

/**
 * ProviderConnectionRepository in a map, with the rules of the TypeORM adapter
 * (provider-connection-repository.contract.ts): one connection per company, replaced by a new one;
 * the employee token only while the Tripletex connection works.
 */
export class InMemoryProviderConnectionRepository extends ProviderConnectionRepository {
  private readonly connections = new Map<string, Stored>();

  constructor(private readonly clock: Clock) {
    super();
  }

  async find(companyId: string): Promise<ProviderConnectionRecord | null> {
    const stored = this.connections.get(companyId);
    return stored ? copy(stored.record) : null;
  }

  async connect(connection: NewProviderConnection): Promise<ProviderConnectionRecord> {
    const now = this.clock.now();
    const { grant } = connection;
    const record: ProviderConnectionRecord = {
      companyId: connection.companyId,
      provider: grant.provider,
      status: 'connected',
      externalCompanyId: connection.externalCompanyId,
      externalCompanyName: connection.externalCompanyName,
      accessTokenExpiresAt: grant.secret.kind === 'oauth' ? new Date(grant.secret.tokens.expiresAt) : null,
      reauthorizationReason: null,
      connectedBy: connection.connectedBy,
      connectedAt: now,
      updatedAt: now,
    };
    this.connections.set(connection.companyId, {
      record,
      employeeToken: grant.secret.kind === 'token' ? grant.secret.token : null,
    });
    return copy(record);
  }

  async storedToken(companyId: string, provider: ProviderKind): Promise<string> {
    const stored = this.connections.get(companyId);
    if (stored?.record.provider !== provider || stored.record.status !== 'connected' || !stored.employeeToken) {
      throw new ProviderReauthorizationRequired(provider, `company ${companyId} has no working ${provider} connection`);
    }
    return stored.employeeToken;
  }

  async markNeedsReauthorization(companyId: string, reason: string): Promise<void> {
    const stored = this.connections.get(companyId);
    if (!stored || stored.record.status === 'needs_reauthorization') return;
    stored.record = {
      ...stored.record,
      status: 'needs_reauthorization',
      reauthorizationReason: reason.slice(0, 500),
      updatedAt: this.clock.now(),
    };
  }

  /** Removes the company's connection (the company is deleted). */
  remove(companyId: string): void {
    this.connections.delete(companyId);
  }

  /** Every connection, as stored (for the in-memory daily check, which reads them all). */
  all(): ProviderConnectionRecord[] {
    return [...this.connections.values()].map((stored) => copy(stored.record));
  }
}
