import { Controller, Get, HttpCode, Post, Query, Req, Res, UseFilters } from '@nestjs/common';
import { ApiExcludeEndpoint, ApiOkResponse, ApiOperation, ApiProperty, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { ConsoleAccess, CONSOLE_MIN_ROLE } from '@app/application';
import type { ConsoleLinkRejection, Identity } from '@app/domain';
import { Access, ConsolePage, Public } from '../auth/access.decorator';
import { CurrentIdentity } from '../auth/current-identity.decorator';
import { AppConfig } from '../config/app-config';
import { html } from '../onboarding/html';
import { ConsoleCookies } from './console-cookies';
import { ConsoleExceptionFilter } from './console-exception.filter';
import { bareConsolePage, sendConsole } from './console-page';

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

/** The console login link of a secret: PUBLIC_URL/console/login?token=… */
export function consoleLoginUrl(publicUrl: string, secret: string): string {
  const url = new URL('/console/login', publicUrl);
  url.searchParams.set('token', secret);
  return url.toString();
}

/**
 * Getting into the web console: the gateway asks for a one-time login link with the person's
 * token; opening the link sets the session cookie and goes to the review queue; logging out ends
 * the session. The link's secret travels in the query string, which the request log never records.
 */
@Controller()
export class ConsoleLoginController {
  constructor(
    private readonly access: ConsoleAccess,
    private readonly cookies: ConsoleCookies,
    private readonly config: AppConfig,
  ) {}

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
  async login(@Query('token') token: unknown, @Res() response: Response): Promise<void> {
    const opened =
      typeof token === 'string' && token.length > 0 && token.length <= 128
        ? await this.access.openLink(token)
        : ({ kind: 'refused', rejection: 'unknown' } as const);
    if (opened.kind === 'refused') {
      sendConsole(
        response,
        401,
        bareConsolePage(
          'This link does not open the console',
          html`<p role="alert">${REFUSALS[opened.rejection]}</p>
            <p>Ask for a new login link and open it within a few minutes.</p>`,
        ),
      );
      return;
    }
    this.cookies.setSession(response, opened.secret, opened.expiresAt);
    response.set({ 'Referrer-Policy': 'no-referrer', 'Cache-Control': 'no-store' }).redirect(303, '/console/review');
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
