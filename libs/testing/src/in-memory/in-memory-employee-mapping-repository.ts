import {
  EmployeeMappingConflict,
  EmployeeMappingRepository,
  sameIdentity,
  type Channel,
  type EmployeeMapping,
  type EmployeeMappingInput,
  type ExternalIdentity,
} from '@app/domain';
import { copy } from './snapshottable';

/** Code-unit order, as PostgreSQL's "C" collation compares these ASCII ids. */
const byCodeUnits = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** The companies' employee mappings in a map per company; each read and save is a copy. */
export class InMemoryEmployeeMappingRepository extends EmployeeMappingRepository {
  private readonly companies = new Map<string, Map<string, EmployeeMapping>>();

  async list(companyId: string, afterUserId: string | null, limit: number): Promise<EmployeeMapping[]> {
    return [...this.of(companyId).values()]
      .filter((mapping) => afterUserId === null || mapping.userId > afterUserId)
      .sort((a, b) => byCodeUnits(a.userId, b.userId))
      .slice(0, limit)
      .map(copy);
  }

  async find(companyId: string, userId: string): Promise<EmployeeMapping | null> {
    const mapping = this.of(companyId).get(userId);
    return mapping ? copy(mapping) : null;
  }

  async findByExternalIdentity(
    companyId: string,
    channel: Channel,
    externalId: string,
  ): Promise<EmployeeMapping | null> {
    const wanted = { channel, externalId };
    const mapping = [...this.of(companyId).values()].find((m) =>
      m.externalIdentities.some((identity) => sameIdentity(identity, wanted)),
    );
    return mapping ? copy(mapping) : null;
  }

  async findByEmail(companyId: string, email: string): Promise<EmployeeMapping | null> {
    const wanted = email.trim().toLowerCase();
    const mapping = [...this.of(companyId).values()].find((m) => m.email === wanted);
    return mapping ? copy(mapping) : null;
  }

  async save(
    companyId: string,
    userId: string,
    input: EmployeeMappingInput,
    now: Date,
  ): Promise<{ mapping: EmployeeMapping; created: boolean }> {
    const mappings = this.of(companyId);
    for (const other of mappings.values()) {
      if (other.userId === userId) continue;
      if (other.email === input.email) {
        throw new EmployeeMappingConflict('email', `${input.email} is already mapped to another user of the company`);
      }
      const taken = input.externalIdentities.find((identity) =>
        other.externalIdentities.some((owned) => sameIdentity(owned, identity)),
      );
      if (taken) {
        throw new EmployeeMappingConflict(
          'externalIdentities',
          `${taken.channel} identity ${taken.externalId} is already mapped to another user of the company`,
        );
      }
    }
    const existing = mappings.get(userId);
    const mapping: EmployeeMapping = {
      companyId,
      userId,
      email: input.email,
      role: input.role,
      externalIdentities: sortedIdentities(input.externalIdentities),
      providerEmployeeId: input.providerEmployeeId,
      defaultDepartmentId: input.defaultDepartmentId ?? null,
      createdAt: existing ? existing.createdAt : now,
      updatedAt: now,
    };
    mappings.set(userId, copy(mapping));
    return { mapping: copy(mapping), created: existing === undefined };
  }

  async delete(companyId: string, userId: string): Promise<boolean> {
    return this.of(companyId).delete(userId);
  }

  private of(companyId: string): Map<string, EmployeeMapping> {
    let mappings = this.companies.get(companyId);
    if (!mappings) {
      mappings = new Map();
      this.companies.set(companyId, mappings);
    }
    return mappings;
  }
}

function sortedIdentities(identities: readonly ExternalIdentity[]): ExternalIdentity[] {
  return [...identities].sort((a, b) => byCodeUnits(a.channel, b.channel) || byCodeUnits(a.externalId, b.externalId));
}
