import { Injectable } from '@nestjs/common';
import {
  Clock,
  CompanyContextStore,
  CompanyRepository,
  EmployeeMappingRepository,
  NotFound,
  ProviderConnectionRepository,
  ValidationFailed,
  isChannel,
  parseEmployeeMapping,
  CHANNELS,
  type EmployeeMapping,
  type ProviderKind,
} from '@app/domain';

export interface EmployeePage {
  readonly items: EmployeeMapping[];
  readonly nextCursor: string | null;
}

/** Which identity the gateway resolves: exactly one of the two forms (docs/api.md §4). */
export interface FactsQuery {
  readonly channel?: string;
  readonly externalId?: string;
  readonly email?: string;
}

/** The conversation facts of one person: their mapping, their company and its provider. */
export interface ConversationFacts {
  readonly employee: EmployeeMapping;
  readonly company: { readonly id: string; readonly name: string };
  readonly provider: ProviderKind | null;
}

/**
 * The employee mapping (spec §2.6, onboarding step 9): admins keep it; the gateway resolves chat
 * identities through it. Every lookup is scoped to the caller's company: another company's user
 * is indistinguishable from a missing one.
 */
@Injectable()
export class EmployeeDirectory {
  constructor(
    private readonly mappings: EmployeeMappingRepository,
    private readonly contexts: CompanyContextStore,
    private readonly companies: CompanyRepository,
    private readonly connections: ProviderConnectionRepository,
    private readonly clock: Clock,
  ) {}

  async list(companyId: string, limit = 50, cursor?: string): Promise<EmployeePage> {
    const after = cursor === undefined ? null : decodeCursor(cursor);
    const page = await this.mappings.list(companyId, after, limit + 1);
    const items = page.slice(0, limit);
    return { items, nextCursor: page.length > limit ? encodeCursor(items[items.length - 1].userId) : null };
  }

  async get(companyId: string, userId: string): Promise<EmployeeMapping> {
    const mapping = await this.mappings.find(companyId, userId);
    if (!mapping) throw new NotFound('employee', userId);
    return mapping;
  }

  /**
   * Creates or replaces a user's mapping. A provider employee id must name an employee of the
   * cached context when the company has one, and a default department one of its departments; a
   * body without `defaultDepartmentId` keeps the one the mapping has.
   */
  async put(
    companyId: string,
    userId: string,
    body: {
      email: unknown;
      role: unknown;
      externalIdentities: unknown;
      providerEmployeeId?: unknown;
      defaultDepartmentId?: unknown;
    },
  ): Promise<{ mapping: EmployeeMapping; created: boolean }> {
    let input = parseEmployeeMapping(userId, body);
    if (body.defaultDepartmentId === undefined) {
      // Left out (the console's form has no such field): the mapping keeps its default department.
      const existing = await this.mappings.find(companyId, userId);
      input = { ...input, defaultDepartmentId: existing?.defaultDepartmentId ?? null };
    } else if (input.defaultDepartmentId !== null) {
      const context = await this.contexts.get(companyId);
      if (context && !context.departments.some((d) => d.id === input.defaultDepartmentId)) {
        const message = `no department ${input.defaultDepartmentId} at the company's ${context.provider}`;
        throw new ValidationFailed(message, [{ field: 'defaultDepartmentId', message }]);
      }
    }
    if (input.providerEmployeeId !== null) {
      const context = await this.contexts.get(companyId);
      if (
        context &&
        context.employees.length > 0 &&
        !context.employees.some((e) => e.id === input.providerEmployeeId)
      ) {
        const message = `no employee ${input.providerEmployeeId} at the company's ${context.provider}`;
        throw new ValidationFailed(message, [{ field: 'providerEmployeeId', message }]);
      }
    }
    return this.mappings.save(companyId, userId, input, this.clock.now());
  }

  async delete(companyId: string, userId: string): Promise<void> {
    if (!(await this.mappings.delete(companyId, userId))) throw new NotFound('employee', userId);
  }

  /** `?channel=&externalId=` or `?email=`, exactly one form; 404 when nobody is mapped. */
  async facts(companyId: string, query: FactsQuery): Promise<ConversationFacts> {
    const byIdentity = query.channel !== undefined || query.externalId !== undefined;
    const byEmail = query.email !== undefined;
    if (byIdentity === byEmail) {
      throw new ValidationFailed('give either channel and externalId, or email', [
        { field: 'query', message: 'exactly one of channel+externalId or email is required' },
      ]);
    }
    let mapping: EmployeeMapping | null;
    if (byIdentity) {
      const errors = [];
      if (!isChannel(query.channel))
        errors.push({ field: 'channel', message: `must be one of ${CHANNELS.join(', ')}` });
      if (!query.externalId) errors.push({ field: 'externalId', message: 'is required with channel' });
      if (errors.length > 0)
        throw new ValidationFailed(errors.map((e) => `${e.field} ${e.message}`).join('; '), errors);
      mapping = await this.mappings.findByExternalIdentity(companyId, query.channel as never, query.externalId!);
    } else {
      mapping = await this.mappings.findByEmail(companyId, query.email!);
    }
    if (!mapping) throw new NotFound('employee', byIdentity ? `${query.channel}:${query.externalId}` : query.email!);
    const company = await this.companies.findById(companyId);
    const connection = await this.connections.find(companyId);
    return {
      employee: mapping,
      company: { id: companyId, name: company?.name ?? companyId },
      provider: connection?.status === 'connected' ? connection.provider : null,
    };
  }
}

function encodeCursor(userId: string): string {
  return Buffer.from(userId, 'utf8').toString('base64url');
}

function decodeCursor(cursor: string): string {
  const userId = Buffer.from(cursor, 'base64url').toString('utf8');
  if (!userId || encodeCursor(userId) !== cursor) {
    throw new ValidationFailed('cursor is not valid', [
      { field: 'cursor', message: 'is not a cursor this endpoint issued' },
    ]);
  }
  return userId;
}
