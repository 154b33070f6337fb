import { ValidationFailed, type FieldError } from '../errors/domain-error';
import { CHANNELS, ROLES, isChannel, isRole, type Channel, type Role } from '../identity/identity';

/** A chat or mail identity of an employee: the Slack user id, the Teams object id, the address. */
export interface ExternalIdentity {
  readonly channel: Channel;
  readonly externalId: string;
}

/**
 * The spec's employee_mapping (§2.6): an internal user, their email and role, the external
 * identities the gateway sees, and the employee record at the provider.
 */
export interface EmployeeMapping {
  readonly companyId: string;
  readonly userId: string;
  /** Lowercased. Unique within the company. */
  readonly email: string;
  readonly role: Role;
  /** Each (channel, externalId) belongs to at most one user of the company. */
  readonly externalIdentities: readonly ExternalIdentity[];
  /** The employee's id at the provider (Tripletex employee id, Fiken contact), when mapped. */
  readonly providerEmployeeId: string | null;
  /**
   * The provider's department the employee's proposals are posted on when they name none: an
   * account that requires a department then gets this one. Null: none.
   */
  readonly defaultDepartmentId: string | null;
  readonly createdAt: Date;
  readonly updatedAt: Date;
}

export type EmployeeMappingInput = Pick<
  EmployeeMapping,
  'email' | 'role' | 'externalIdentities' | 'providerEmployeeId' | 'defaultDepartmentId'
>;

const USER_ID = /^[A-Za-z0-9][A-Za-z0-9._:@-]{0,127}$/;
const EMAIL = /^[^\s@]{1,64}@[^\s@]{1,255}$/;
const EXTERNAL_ID = /^[\x21-\x7e]{1,255}$/;

export function isUserId(value: string): boolean {
  return USER_ID.test(value);
}

/**
 * Checks and normalises a mapping from outside (email lowercased, identities de-duplicated);
 * throws ValidationFailed listing every problem.
 */
export function parseEmployeeMapping(
  userId: string,
  input: {
    email: unknown;
    role: unknown;
    externalIdentities: unknown;
    providerEmployeeId?: unknown;
    defaultDepartmentId?: unknown;
  },
): EmployeeMappingInput {
  const errors: FieldError[] = [];
  if (!isUserId(userId))
    errors.push({
      field: 'userId',
      message: 'must be 1–128 letters, digits or . _ : @ -, starting with a letter or digit',
    });
  const email = typeof input.email === 'string' ? input.email.trim().toLowerCase() : '';
  if (!EMAIL.test(email)) errors.push({ field: 'email', message: 'must be an email address' });
  if (!isRole(input.role)) errors.push({ field: 'role', message: `must be one of ${ROLES.join(', ')}` });
  const identities: ExternalIdentity[] = [];
  if (!Array.isArray(input.externalIdentities) || input.externalIdentities.length > 20) {
    errors.push({ field: 'externalIdentities', message: 'must be an array of at most 20 identities' });
  } else {
    input.externalIdentities.forEach((raw: unknown, i) => {
      const item = (raw ?? {}) as { channel?: unknown; externalId?: unknown };
      if (!isChannel(item.channel))
        errors.push({ field: `externalIdentities.${i}.channel`, message: `must be one of ${CHANNELS.join(', ')}` });
      if (typeof item.externalId !== 'string' || !EXTERNAL_ID.test(item.externalId)) {
        errors.push({
          field: `externalIdentities.${i}.externalId`,
          message: 'must be 1–255 printable characters without spaces',
        });
      }
      if (isChannel(item.channel) && typeof item.externalId === 'string') {
        const identity = { channel: item.channel, externalId: item.externalId };
        if (!identities.some((known) => sameIdentity(known, identity))) identities.push(identity);
      }
    });
  }
  const providerEmployeeId = input.providerEmployeeId ?? null;
  if (
    providerEmployeeId !== null &&
    (typeof providerEmployeeId !== 'string' || !/^[\x21-\x7e]{1,64}$/.test(providerEmployeeId))
  ) {
    errors.push({ field: 'providerEmployeeId', message: 'must be 1–64 printable characters or null' });
  }
  const defaultDepartmentId = input.defaultDepartmentId ?? null;
  if (
    defaultDepartmentId !== null &&
    (typeof defaultDepartmentId !== 'string' || !/^[\x21-\x7e]{1,64}$/.test(defaultDepartmentId))
  ) {
    errors.push({ field: 'defaultDepartmentId', message: 'must be 1–64 printable characters or null' });
  }
  if (errors.length > 0) throw new ValidationFailed(errors.map((e) => `${e.field} ${e.message}`).join('; '), errors);
  return {
    email,
    role: input.role as Role,
    externalIdentities: identities,
    providerEmployeeId: providerEmployeeId as string | null,
    defaultDepartmentId: defaultDepartmentId as string | null,
  };
}

export function sameIdentity(a: ExternalIdentity, b: ExternalIdentity): boolean {
  return a.channel === b.channel && a.externalId === b.externalId;
}

/**
 * Saving a mapping would give an email or an external identity to a second user of the company.
 * A validation failure of the request (the contract has no conflict code for it).
 */
export class EmployeeMappingConflict extends ValidationFailed {
  constructor(field: 'email' | 'externalIdentities', message: string) {
    super(message, [{ field, message }]);
  }
}
