import { Controller, Get, HttpCode, Post, Query, Req, Res, UseFilters } from '@nestjs/common';
import { ApiExcludeEndpoint, ApiOkResponse, ApiOperation, ApiProperty, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { ConsoleAccess, CONSOLE_MIN_ROLE, GetCompanyProfile } from '@app/application';
import { isProviderKind, type ConsoleLinkRejection, type Identity, type ProviderKind } from '@app/domain';
import { Access, ConsolePage, Public } from '../auth/access.decorator';
import { CurrentIdentity } from '../auth/current-identity.decorator';
import { AppConfig } from '../config/app-config';
import { html } from './html';
import { ConsoleCookies } from './console-cookies';
import { ConsoleExceptionFilter } from './console-exception.filter';
import { bareConsolePage, sendConsole } from './console-page';
import { LABELS } from './console-labels';
import { readConsoleForm } from './console-session.guard';

class ConsoleLinkDto {
  @ApiProperty({ description: 'Open it in the person’s browser: valid once, for 5 minutes' })
  url!: string;
  @ApiProperty({ example: '2026-11-20T08:05:00.000Z' })
  expiresAt!: string;
}

const REFUSALS: Record<ConsoleLinkRejection, string> = {
  unknown: 'This login link is not one the service issued.',
  used: 'This login link has been used already: each link opens the console once.',
  expired: 'This login link has expired: a link must be opened within 5 minutes.',
};

const PROVIDER_NAMES: Record<ProviderKind, string> = { tripletex: 'Tripletex', fiken: 'Fiken' };

/**
 * The console login link of a secret: PUBLIC_URL/console/login?token=…, with `&connect=<provider>`
 * when signing in should lead to that provider's Connect button on the company page.
 */
export function consoleLoginUrl(publicUrl: string, secret: string, connect?: ProviderKind): string {
  const url = new URL('/console/login', publicUrl);
  url.searchParams.set('token', secret);
  if (connect) url.searchParams.set('connect', connect);
  return url.toString();
}

/**
 * Whether a POST comes from one of the service's own pages. A browser says so in Sec-Fetch-Site
 * (every current one does), or else in Origin; a request with neither, or with `Origin: null`, is
 * refused. SameSite cookies cannot protect a sign-in, which has no cookie yet: without this, any
 * site could post its own link's token and sign a visitor into the attacker's session.
 */
function fromOwnPage(request: Request, ownOrigin: string): boolean {
  const site = request.header('sec-fetch-site');
  if (site !== undefined) return site === 'same-origin';
  return request.header('origin') === ownOrigin;
}

/**
 * Getting into the web console: the gateway asks for a one-time login link with the person's
 * token; opening the link shows a page naming the company and the person it signs in, changing
 * nothing; only that page's "Sign in" (a POST from the service's own origin, carrying the link's
 * token in its body) uses the link, sets the session cookie and goes on to the review queue (or,
 * for a link from the API's connect route, to the company page's Connect button). Logging out ends
 * the session. The link's secret travels in the query string and the form body, which the request
 * log never records.
 */
@Controller()
export class ConsoleLoginController {
  private readonly ownOrigin: string;

  constructor(
    private readonly access: ConsoleAccess,
    private readonly cookies: ConsoleCookies,
    private readonly profiles: GetCompanyProfile,
    private readonly config: AppConfig,
  ) {
    this.ownOrigin = new URL(config.publicUrl).origin;
  }

  @Post('v1/console/links')
  @HttpCode(200)
  @Access(null, CONSOLE_MIN_ROLE)
  @ApiTags('console')
  @ApiOperation({
    summary: 'A one-time login link to the web console for the token’s person (manager, accountant or admin)',
    description:
      'The session the link opens carries the token’s company, subject, role and permissions, acting on the channel web.',
  })
  @ApiOkResponse({ type: ConsoleLinkDto })
  async link(@CurrentIdentity() identity: Identity): Promise<ConsoleLinkDto> {
    const link = await this.access.issueLink(identity);
    return { url: consoleLoginUrl(this.config.publicUrl, link.secret), expiresAt: link.expiresAt.toISOString() };
  }

  @Get('console/login')
  @Public()
  @ApiExcludeEndpoint()
  @UseFilters(ConsoleExceptionFilter)
  async signInPage(
    @Query('token') token: unknown,
    @Query('connect') connect: unknown,
    @Res() response: Response,
  ): Promise<void> {
    const previewed = wellFormed(token)
      ? await this.access.previewLink(token)
      : ({ kind: 'refused', rejection: 'unknown' } as const);
    if (previewed.kind === 'refused') {
      refuse(response, previewed.rejection);
      return;
    }
    const person = previewed.identity;
    const company = await this.profiles.execute(person.company);
    const next = providerOf(connect);
    sendConsole(
      response,
      200,
      bareConsolePage(
        'Sign in to the console',
        html`<p>
            This link signs you in to the console of
            <strong>${company.name}</strong> (<code>${person.company}</code>) as
            <strong>${person.actor}</strong> (${LABELS.role[person.role]})${
              next ? html`, to connect ${PROVIDER_NAMES[next]} to this company` : ''
            }.
          </p>
          <p>If you are not this person, or did not ask for this link, close this page: nothing has happened yet.</p>
          <form method="post" action="/console/login">
            <input type="hidden" name="token" value="${token}" />
            ${next ? html`<input type="hidden" name="connect" value="${next}" />` : ''}
            <p><button type="submit">Sign in as ${person.actor}</button></p>
          </form>`,
      ),
    );
  }

  @Post('console/login')
  @Public()
  @ApiExcludeEndpoint()
  @UseFilters(ConsoleExceptionFilter)
  async signIn(@Req() request: Request, @Res() response: Response): Promise<void> {
    if (!fromOwnPage(request, this.ownOrigin)) {
      sendConsole(
        response,
        403,
        bareConsolePage(
          'The sign-in was refused',
          html`<p role="alert">
            A sign-in must come from the console’s own sign-in page. Nothing was changed, and the login link was not
            used: open it again and press “Sign in”.
          </p>`,
        ),
      );
      return;
    }
    const form = await readConsoleForm(request, response);
    const opened = wellFormed(form.token)
      ? await this.access.openLink(form.token)
      : ({ kind: 'refused', rejection: 'unknown' } as const);
    if (opened.kind === 'refused') {
      refuse(response, opened.rejection);
      return;
    }
    this.cookies.setSession(response, opened.secret, opened.expiresAt);
    const connect = providerOf(form.connect);
    const next = connect ? `/console/company?connect=${connect}#connection-heading` : '/console/review';
    response.set({ 'Referrer-Policy': 'no-referrer', 'Cache-Control': 'no-store' }).redirect(303, next);
  }

  @Post('console/logout')
  @ConsolePage(null, CONSOLE_MIN_ROLE)
  @UseFilters(ConsoleExceptionFilter)
  async logout(@Req() request: Request, @Res() response: Response): Promise<void> {
    const secret = this.cookies.readSession(request);
    if (secret) await this.access.logout(secret);
    this.cookies.clearSession(response);
    sendConsole(
      response,
      200,
      bareConsolePage('Logged out', html`<p role="status">Your console session has ended in this browser.</p>`),
    );
  }
}

function providerOf(value: unknown): ProviderKind | undefined {
  return typeof value === 'string' && isProviderKind(value) ? value : undefined;
}

function wellFormed(token: unknown): token is string {
  return typeof token === 'string' && token.length > 0 && token.length <= 128;
}

function refuse(response: Response, rejection: ConsoleLinkRejection): void {
  sendConsole(
    response,
    401,
    bareConsolePage(
      'This link does not open the console',
      html`<p role="alert">${REFUSALS[rejection]}</p>
        <p>Ask for a new login link and open it within a few minutes.</p>`,
    ),
  );
}
