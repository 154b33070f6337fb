import { ROLE_PERMISSIONS, roleAtLeast, type Identity, type Permission, type Role } from '@app/domain';
import type { ConsolePageRule } from './console-page';

/** What each permission group lets a person do in the console, as a sentence ends. */
const WHAT: Record<Permission, string> = {
  solve: 'approve or reject proposals',
  query: 'look up the books',
  facts: 'read the company’s facts',
  monitor: 'see the review queue, the checks and the messages',
  rules: 'see and change the merchant patterns',
  config: 'change the company’s settings, its provider connection and its employee mapping',
};

/** Who may, by the lowest role a rule allows. */
const WHO: Record<Role, string> = {
  employee: 'a person of the company',
  manager: 'a manager, an accountant or an administrator',
  accountant: 'an accountant or an administrator',
  admin: 'an administrator',
};

/**
 * Why a console page refuses a session, in words a person reads: who may do what the page does,
 * or, when the role would allow it but the sign-in does not carry the right, what to ask for.
 */
export function refusalText(rule: ConsolePageRule, identity: Identity): string {
  const what = rule.permission ? WHAT[rule.permission] : 'use this page';
  const roleAllows =
    roleAtLeast(identity.role, rule.minRole) &&
    (rule.permission === null || ROLE_PERMISSIONS[identity.role].includes(rule.permission));
  if (!roleAllows) return `Only ${WHO[rule.minRole]} can ${what}.`;
  return `Your sign-in does not include the right to ${what}. Ask an administrator for it, then open a new login link.`;
}
