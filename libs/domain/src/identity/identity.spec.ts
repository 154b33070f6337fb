import {
  effectivePermissions,
  PERMISSIONS,
  ROLE_PERMISSIONS,
  ROLES,
  roleAtLeast,
  type Permission,
  type Role,
} from './identity';

describe('roles and permissions (docs/api.md §2)', () => {
  it('lets each role hold exactly the groups of the contract table', () => {
    expect(ROLE_PERMISSIONS).toEqual({
      employee: ['solve', 'query', 'facts'],
      manager: ['solve', 'query', 'facts', 'monitor'],
      accountant: ['solve', 'query', 'facts', 'monitor', 'rules'],
      admin: ['solve', 'query', 'facts', 'monitor', 'rules', 'config'],
    });
  });

  it('orders roles employee < manager < accountant < admin', () => {
    const table = ROLES.map((role) => ROLES.map((min) => roleAtLeast(role, min)));
    expect(table).toEqual([
      [true, false, false, false],
      [true, true, false, false],
      [true, true, true, false],
      [true, true, true, true],
    ]);
  });

  it.each(ROLES)('caps what a %s token lists by what the role may hold', (role: Role) => {
    expect(effectivePermissions(role, [...PERMISSIONS])).toEqual(ROLE_PERMISSIONS[role]);
    expect(effectivePermissions(role, [])).toEqual([]);
  });

  it('never grants a group the token does not list', () => {
    expect(effectivePermissions('admin', ['query'])).toEqual(['query']);
  });

  it('does not give an employee config even when the token lists it', () => {
    expect(effectivePermissions('employee', ['config', 'solve'] as Permission[])).toEqual(['solve']);
  });

  it('returns permissions in canonical order without duplicates', () => {
    expect(effectivePermissions('admin', ['config', 'query', 'query', 'solve'])).toEqual(['solve', 'query', 'config']);
  });
});
