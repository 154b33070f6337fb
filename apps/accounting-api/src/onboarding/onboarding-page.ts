import type { Response } from 'express';
import { html, type Html } from '../console/html';

/** The OAuth callback's small server-rendered pages. */
function page(title: string, body: Html): string {
  return html`<!doctype html>
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>${title}</title>
        <style>
          body {
            font-family: system-ui, sans-serif;
            max-width: 44rem;
            margin: 2rem auto;
            padding: 0 1rem;
            line-height: 1.5;
          }
          .ok {
            color: #17603a;
          }
          .bad {
            color: #a11a1a;
          }
          code {
            background: #f3f3f3;
            padding: 0 0.2rem;
          }
          td,
          th {
            padding: 0.2rem 0.6rem;
            text-align: left;
          }
        </style>
      </head>
      <body>
        <h1>${title}</h1>
        ${body}
      </body>
    </html>`.value;
}

/**
 * Sends an HTML page with headers that keep it inert: no scripts, no framing, no referrer (the
 * callback URL carries the authorization code), never cached.
 */
export function sendPage(response: Response, status: number, title: string, body: Html): void {
  response
    .status(status)
    .set({
      'Content-Type': 'text/html; charset=utf-8',
      'Cache-Control': 'no-store',
      'Content-Security-Policy':
        "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'",
      'Referrer-Policy': 'no-referrer',
      'X-Frame-Options': 'DENY',
      'X-Content-Type-Options': 'nosniff',
    })
    .send(page(title, body));
}
