import type { Channel } from '../identity/identity';
import type { EmployeeMapping, EmployeeMappingInput } from '../employee/employee-mapping';

/**
 * The companies' employee mappings (spec §2.6). Every read is scoped to one company; a mapping's
 * external identities come back ordered by channel, then external id.
 */
export abstract class EmployeeMappingRepository {
  /** Keyset page ordered by userId, strictly after `afterUserId`. */
  abstract list(companyId: string, afterUserId: string | null, limit: number): Promise<EmployeeMapping[]>;

  abstract find(companyId: string, userId: string): Promise<EmployeeMapping | null>;

  abstract findByExternalIdentity(
    companyId: string,
    channel: Channel,
    externalId: string,
  ): Promise<EmployeeMapping | null>;

  /** Emails compare case-insensitively. */
  abstract findByEmail(companyId: string, email: string): Promise<EmployeeMapping | null>;

  /**
   * Creates or replaces the user's mapping, external identities included, in one transaction.
   * Throws `EmployeeMappingConflict` when the email or an identity belongs to another user.
   */
  abstract save(
    companyId: string,
    userId: string,
    input: EmployeeMappingInput,
    now: Date,
  ): Promise<{ mapping: EmployeeMapping; created: boolean }>;

  /** Returns whether there was a mapping. */
  abstract delete(companyId: string, userId: string): Promise<boolean>;
}
