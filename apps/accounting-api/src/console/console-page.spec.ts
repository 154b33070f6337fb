import 'reflect-metadata';
import type { Identity, Permission, Role } from '@app/domain';
import { ACCESS_KEY } from '../auth/access.decorator';
import { ChecksConsoleController } from './checks.console-controller';
import { CompanyConsoleController } from './company.console-controller';
import { MessagesConsoleController } from './messages.console-controller';
import { PatternsConsoleController } from './patterns.console-controller';
import { ReimbursementsConsoleController } from './reimbursements.console-controller';
import { ReviewConsoleController } from './review.console-controller';
import {
  bareConsolePage,
  consolePage,
  CONSOLE_SECTIONS,
  DECIDE_RULE,
  PROPOSAL_PAGE_RULE,
  type ConsoleSection,
} from './console-page';
import { html } from './html';

function identity(role: Role, permissions: Permission[]): Identity {
  return {
    actor: 'kari@example.no',
    company: 'c1',
    channel: 'web',
    role,
    permissions,
    tokenExpiresAt: new Date('2026-11-28T20:00:00Z'),
  };
}

function navOf(who: Identity): string[] {
  const page = consolePage(
    { identity: who, csrf: 'c', companyName: 'Fjord AS', locale: 'en-GB' },
    'review',
    'Review',
    html`<p>x</p>`,
  ).value;
  return [...page.matchAll(/<a href="(\/console\/[a-z]+)"/g)].map((m) => m[1]);
}

describe('consolePage', () => {
  it('offers in its navigation only the sections the viewer may open', () => {
    expect(navOf(identity('admin', ['solve', 'query', 'facts', 'monitor', 'rules', 'config']))).toEqual([
      '/console/review',
      '/console/patterns',
      '/console/company',
      '/console/checks',
      '/console/reimbursements',
      '/console/messages',
    ]);
    expect(navOf(identity('accountant', ['solve', 'query', 'facts', 'monitor', 'rules']))).toEqual([
      '/console/review',
      '/console/patterns',
      '/console/checks',
      '/console/reimbursements',
      '/console/messages',
    ]);
    // An accountant whose token lacks `rules` cannot open the patterns page, nor without `query` the reimbursements.
    expect(navOf(identity('accountant', ['solve', 'monitor']))).toEqual([
      '/console/review',
      '/console/checks',
      '/console/messages',
    ]);
    expect(navOf(identity('manager', ['monitor']))).toEqual([
      '/console/review',
      '/console/checks',
      '/console/messages',
    ]);
    // An admin token without `config` does not see Company.
    expect(navOf(identity('admin', ['monitor', 'rules']))).not.toContain('/console/company');
  });

  it('names the role in words and links the icon on every page', () => {
    const page = consolePage(
      { identity: identity('admin', ['monitor']), csrf: 'c', companyName: 'Fjord AS', locale: 'nb-NO' },
      null,
      'T',
      html``,
    ).value;
    expect(page).toContain('kari@example.no (Administrator)');
    expect(page).toContain('<link rel="icon" href="/console/assets/favicon.svg" type="image/svg+xml" />');
    expect(bareConsolePage('T', html``).value).toContain('<link rel="icon" href="/console/assets/favicon.svg"');
  });

  it("keeps each section's rule equal to the @ConsolePage rule of its page's controller", () => {
    const handlers: Record<ConsoleSection, object> = {
      review: ReviewConsoleController.prototype.review,
      patterns: PatternsConsoleController.prototype.list,
      company: CompanyConsoleController.prototype.page,
      checks: ChecksConsoleController.prototype.page,
      reimbursements: ReimbursementsConsoleController.prototype.page,
      messages: MessagesConsoleController.prototype.page,
    };
    for (const section of CONSOLE_SECTIONS) {
      const rule = Reflect.getMetadata(ACCESS_KEY, handlers[section.id]) as unknown;
      expect({ section: section.id, rule }).toEqual({ section: section.id, rule: { console: true, ...section.rule } });
    }
    expect(Reflect.getMetadata(ACCESS_KEY, ReviewConsoleController.prototype.proposal)).toEqual({
      console: true,
      ...PROPOSAL_PAGE_RULE,
    });
    for (const decide of [ReviewConsoleController.prototype.approve, ReviewConsoleController.prototype.reject]) {
      expect(Reflect.getMetadata(ACCESS_KEY, decide)).toEqual({ console: true, ...DECIDE_RULE });
    }
  });
});
