import type { Response } from 'express';
import { roleAtLeast, type Identity, type Permission, type Role } from '@app/domain';
import { html, type Html } from './html';
import type { ConsoleLocale } from './console-format';
import { LABELS } from './console-labels';

/** What opening a console page needs: the permission and minimum role of its `@ConsolePage` rule. */
export interface ConsolePageRule {
  readonly permission: Permission | null;
  readonly minRole: Role;
}

/**
 * The console's sections, in navigation order, each with the rule of its page (the controllers'
 * `@ConsolePage(...)` use these same rules, so the navigation offers exactly what opens).
 */
export const CONSOLE_SECTIONS = [
  { id: 'review', label: 'Review', path: '/console/review', rule: { permission: 'monitor', minRole: 'manager' } },
  {
    id: 'patterns',
    label: 'Patterns',
    path: '/console/patterns',
    rule: { permission: 'rules', minRole: 'accountant' },
  },
  { id: 'company', label: 'Company', path: '/console/company', rule: { permission: 'config', minRole: 'admin' } },
  { id: 'checks', label: 'Checks', path: '/console/checks', rule: { permission: 'monitor', minRole: 'manager' } },
  {
    id: 'reimbursements',
    label: 'Reimbursements',
    path: '/console/reimbursements',
    rule: { permission: 'query', minRole: 'accountant' },
  },
  { id: 'messages', label: 'Messages', path: '/console/messages', rule: { permission: 'monitor', minRole: 'manager' } },
] as const satisfies readonly { id: string; label: string; path: string; rule: ConsolePageRule }[];
export type ConsoleSection = (typeof CONSOLE_SECTIONS)[number]['id'];

/** The rule of a proposal's page (`/console/proposals/{id}`): whoever sees the review queue. */
export const PROPOSAL_PAGE_RULE: ConsolePageRule = { permission: 'monitor', minRole: 'manager' };

/** The rule of approving, rejecting and stopping a proposal in the console (the API's `solve` + accountant). */
export const DECIDE_RULE: ConsolePageRule = { permission: 'solve', minRole: 'accountant' };

/** Whether `identity` may open a page with `rule`: the checks the ConsoleSessionGuard makes. */
export function mayOpen(identity: Identity, rule: ConsolePageRule): boolean {
  return (
    (rule.permission === null || identity.permissions.includes(rule.permission)) &&
    roleAtLeast(identity.role, rule.minRole)
  );
}

/** What every console page knows about its viewer. */
export interface ConsoleViewer {
  readonly identity: Identity;
  readonly csrf: string;
  readonly companyName: string;
  readonly locale: ConsoleLocale;
}

/** The hidden field every state-changing form carries. */
export function csrfField(viewer: ConsoleViewer): Html {
  return html`<input type="hidden" name="_csrf" value="${viewer.csrf}" />`;
}

/** The icon of every console page (served by ConsoleAssetsController; `/favicon.ico` too). */
const ICON = html`<link rel="icon" href="/console/assets/favicon.svg" type="image/svg+xml" />`;

/**
 * A console page: skip link, navigation (only the sections the viewer may open), the signed-in
 * person, a logout form, then `body`.
 */
export function consolePage(viewer: ConsoleViewer, section: ConsoleSection | null, title: string, body: Html): Html {
  const lang = viewer.locale === 'nb-NO' ? 'nb' : 'en';
  const nav = CONSOLE_SECTIONS.filter((s) => mayOpen(viewer.identity, s.rule)).map(
    (s) =>
      html`<li>
        <a href="${s.path}" ${s.id === section ? html`aria-current="page"` : html``}>${s.label}</a>
      </li>`,
  );
  return html`<!doctype html>
    <html lang="${lang}">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="csrf-token" content="${viewer.csrf}" />
        <title>${title} · ${viewer.companyName}</title>
        ${ICON}
        <link rel="stylesheet" href="/console/assets/console.css" />
        <script src="/console/assets/console.js" defer></script>
      </head>
      <body>
        <a class="skip" href="#main">Skip to content</a>
        <header class="top">
          <span class="brand">${viewer.companyName}</span>
          <nav aria-label="Console">
            <ul>
              ${nav}
            </ul>
          </nav>
          <form method="post" action="/console/logout" class="logout">
            ${csrfField(viewer)}
            <span class="who">${viewer.identity.actor} (${LABELS.role[viewer.identity.role]})</span>
            <button type="submit">Log out</button>
          </form>
        </header>
        <main id="main" tabindex="-1">
          <h1>${title}</h1>
          ${body}
        </main>
      </body>
    </html>`;
}

/** A page outside a session (sign-in refused, session ended): no navigation, no data. */
export function bareConsolePage(title: string, body: Html): Html {
  return html`<!doctype html>
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>${title}</title>
        ${ICON}
        <link rel="stylesheet" href="/console/assets/console.css" />
      </head>
      <body>
        <main id="main" class="bare">
          <h1>${title}</h1>
          ${body}
        </main>
      </body>
    </html>`;
}

/**
 * Sends a console page with headers that keep it safe: scripts and styles only from the service
 * itself (no inline script), receipts framed only by the console, forms posting only to the
 * service (plus, where given, the providers' consent screens a connect form redirects to), no
 * framing by others, no referrer, never cached.
 */
export function sendConsole(
  response: Response,
  status: number,
  document: Html,
  options: { formTargets?: readonly string[] } = {},
): void {
  const formAction = ["'self'", ...(options.formTargets ?? [])].join(' ');
  response
    .status(status)
    .set({
      'Content-Type': 'text/html; charset=utf-8',
      'Cache-Control': 'no-store',
      'Content-Security-Policy':
        "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; frame-src 'self'; " +
        `connect-src 'self'; form-action ${formAction}; frame-ancestors 'none'; base-uri 'none'`,
      'Referrer-Policy': 'no-referrer',
      'X-Frame-Options': 'DENY',
      'X-Content-Type-Options': 'nosniff',
      'Cross-Origin-Opener-Policy': 'same-origin',
    })
    .send(document.value);
}
