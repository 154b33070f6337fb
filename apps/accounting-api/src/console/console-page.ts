import type { Response } from 'express';
import type { Identity } from '@app/domain';
import { html, type Html } from './html';
import type { ConsoleLocale } from './console-format';

/** The console's sections, in navigation order. */
export const CONSOLE_SECTIONS = [
  { id: 'review', label: 'Review', path: '/console/review' },
  { id: 'patterns', label: 'Patterns', path: '/console/patterns' },
  { id: 'company', label: 'Company', path: '/console/company' },
  { id: 'checks', label: 'Checks', path: '/console/checks' },
  { id: 'messages', label: 'Messages', path: '/console/messages' },
] as const;
export type ConsoleSection = (typeof CONSOLE_SECTIONS)[number]['id'];

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

/** A console page: skip link, navigation, the signed-in person, a logout form, then `body`. */
export function consolePage(viewer: ConsoleViewer, section: ConsoleSection | null, title: string, body: Html): Html {
  const lang = viewer.locale === 'nb-NO' ? 'nb' : 'en';
  const nav = CONSOLE_SECTIONS.map(
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
            <span class="who">${viewer.identity.actor} (${viewer.identity.role})</span>
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
