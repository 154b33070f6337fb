import type { Identity, Permission, Role } from '@app/domain';
import { refusalText } from './console-refusal';

function who(role: Role, permissions: Permission[]): Identity {
  return { actor: 'a@b.no', company: 'c1', channel: 'web', role, permissions, tokenExpiresAt: new Date(0) };
}

describe('refusalText', () => {
  it('says who may, when the role can never open the page', () => {
    expect(refusalText({ permission: 'config', minRole: 'admin' }, who('accountant', ['monitor', 'rules']))).toBe(
      'Only an administrator can change the company’s settings, its provider connection and its employee mapping.',
    );
    expect(refusalText({ permission: 'rules', minRole: 'accountant' }, who('manager', ['monitor']))).toBe(
      'Only an accountant or an administrator can see and change the merchant patterns.',
    );
    expect(refusalText({ permission: 'solve', minRole: 'accountant' }, who('manager', ['solve', 'monitor']))).toBe(
      'Only an accountant or an administrator can approve or reject proposals.',
    );
  });

  it('says what to ask for, when the role allows it but the sign-in does not carry the right', () => {
    const text = refusalText({ permission: 'rules', minRole: 'accountant' }, who('accountant', ['monitor']));
    expect(text).toBe(
      'Your sign-in does not include the right to see and change the merchant patterns. ' +
        'Ask an administrator for it, then open a new login link.',
    );
    expect(text).not.toMatch(/permission|token|"/);
  });
});
