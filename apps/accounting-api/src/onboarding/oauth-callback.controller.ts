import { Body, Controller, Get, Param, Post, Query, Req, Res } from '@nestjs/common';
import {
  ApiBadGatewayResponse,
  ApiBadRequestResponse,
  ApiExcludeEndpoint,
  ApiForbiddenResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiProduces,
  ApiTags,
} from '@nestjs/swagger';
import type { Request, Response } from 'express';
import type { StateRejection } from '@app/domain';
import { PROVIDER_KINDS, PROVIDER_NAMES, PROVIDERS } from '@app/providers';
import { CompleteConnection, type ConnectionOutcome } from '@app/application';
import { HistoryImportStarter } from '../patterns/history-import-on-connect';
import { Public } from '../auth/access.decorator';
import { ConsoleCookies } from '../console/console-cookies';
import { html, type Html } from '../console/html';
import { sendPage } from './onboarding-page';

const STATE_MESSAGES: Record<StateRejection, string> = {
  forged: 'The link is not one this service issued (its state does not verify). Nothing was stored.',
  expired:
    'The link has expired: a connection must be finished within 10 minutes. Nothing was stored; start again from the console’s company page.',
  replayed: 'The link has been used already. Nothing was stored; start again from the console’s company page.',
  other_browser:
    'This link was started in another browser: a connection can only be finished in the browser of the person who started it in the console. Nothing was stored.',
  unbound:
    'This link was not started from the web console: a connection can only be finished in the browser of the admin who started it on the console’s company page. Nothing was stored.',
};

type RawQuery = Record<string, unknown>;

/** The registered providers onboarded by a pasted token (the definition's `onboarding: 'token'`). */
const TOKEN_PROVIDERS = PROVIDERS.filter((definition) => definition.onboarding === 'token');

function text(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

/**
 * The provider's redirect back to the service (onboarding steps 4–8). Outside the gateway token:
 * the signed, single-use state is what authorises it. Answers with a small HTML page for the
 * admin's browser, never with a token.
 */
/** The OpenAPI content of the HTML pages these routes answer with. */
const HTML_PAGE = { 'text/html': { schema: { type: 'string' as const } } };

@ApiTags('onboarding')
@Controller('v1/oauth')
export class OAuthCallbackController {
  constructor(
    private readonly complete: CompleteConnection,
    private readonly history: HistoryImportStarter,
    private readonly cookies: ConsoleCookies,
  ) {}

  @Get(':provider/callback')
  @Public()
  @ApiOperation({
    summary: "The provider's OAuth redirect: exchanges the code, stores the tokens sealed, pre-fetches the context",
  })
  @ApiParam({ name: 'provider', enum: PROVIDER_KINDS })
  @ApiProduces('text/html')
  @ApiOkResponse({ description: 'an HTML page saying what happened', content: HTML_PAGE })
  @ApiBadRequestResponse({
    description: 'an HTML page: the state is not valid, nothing was stored',
    content: HTML_PAGE,
  })
  @ApiForbiddenResponse({ description: 'an HTML page: the provider refused the authorization', content: HTML_PAGE })
  @ApiNotFoundResponse({ description: 'an HTML page: no such provider', content: HTML_PAGE })
  @ApiBadGatewayResponse({ description: 'an HTML page: the provider failed, nothing was stored', content: HTML_PAGE })
  async callback(
    @Param('provider') provider: string,
    @Query() query: RawQuery,
    @Req() request: Request,
    @Res() response: Response,
  ): Promise<void> {
    await this.finish(
      provider,
      { state: text(query.state), code: text(query.code), error: text(query.error) },
      request,
      response,
    );
  }

  /** A token provider's form posts here (a token does not belong in a URL). */
  @Post(':provider/callback')
  @Public()
  @ApiExcludeEndpoint()
  async callbackForm(
    @Param('provider') provider: string,
    @Body() body: RawQuery,
    @Req() request: Request,
    @Res() response: Response,
  ): Promise<void> {
    const form = body ?? {};
    await this.finish(
      provider,
      { state: text(form.state), code: text(form.code)?.trim(), error: text(form.error) },
      request,
      response,
    );
  }

  /**
   * A `token` provider (Tripletex) has no consent screen: the customer creates a token at the
   * provider and the admin pastes it here. The form is shown only for a provider whose definition
   * onboards by token, for a pending, valid state, in the browser it is bound to (so no one is
   * invited to paste a token where it could never be accepted).
   */
  @Get(':provider/token-form')
  @Public()
  @ApiOperation({
    summary:
      'A token provider (Tripletex): the page where an admin pastes the token (the console’s Connect leads here)',
  })
  @ApiParam({ name: 'provider', enum: TOKEN_PROVIDERS.map((definition) => definition.kind) })
  @ApiProduces('text/html')
  @ApiOkResponse({ description: 'the form', content: HTML_PAGE })
  @ApiBadRequestResponse({ description: 'an HTML page: the link is not valid in this browser', content: HTML_PAGE })
  @ApiNotFoundResponse({
    description: 'an HTML page: the provider connects by consent, not by a pasted token',
    content: HTML_PAGE,
  })
  async tokenForm(
    @Param('provider') provider: string,
    @Query() query: RawQuery,
    @Req() request: Request,
    @Res() response: Response,
  ): Promise<void> {
    const definition = TOKEN_PROVIDERS.find((candidate) => candidate.kind === provider);
    if (!definition) {
      const names = TOKEN_PROVIDERS.map((token) => token.displayName).join(', ');
      sendPage(
        response,
        404,
        'No token form',
        html`<p class="bad">
          A pasted token connects ${names} only; other providers ask for consent on their own page.
        </p>`,
      );
      return;
    }
    const state = text(query.state) ?? '';
    if (!(await this.complete.isPending(definition.kind, state, this.cookies.readOAuthBinding(request)))) {
      sendPage(
        response,
        400,
        `${definition.displayName} was not connected`,
        html`<p class="bad">
          This link is not valid in this browser: it was used, it expired, it was started in another browser, or this
          service did not issue it. Start again from the console’s company page.
        </p>`,
      );
      return;
    }
    const form = definition.tokenForm ?? {
      label: 'Token',
      instructions: `Create a token for this integration in ${definition.displayName} and paste it here.`,
    };
    sendPage(
      response,
      200,
      `Connect ${definition.displayName}`,
      html`<p>${form.instructions}</p>
        <form method="post" action="callback">
          <input type="hidden" name="state" value="${state}" />
          <label>${form.label} <input type="password" name="code" autocomplete="off" required /></label>
          <p><button type="submit">Connect</button></p>
        </form>`,
    );
  }

  private async finish(
    provider: string,
    callback: { state?: string; code?: string; error?: string },
    request: Request,
    response: Response,
  ): Promise<void> {
    if (!PROVIDER_KINDS.includes(provider)) {
      sendPage(
        response,
        404,
        'Unknown provider',
        html`<p class="bad">
          This service connects to ${PROVIDER_KINDS.map((kind) => PROVIDER_NAMES[kind]).join(', ')} only.
        </p>`,
      );
      return;
    }
    const browserSecret = this.cookies.readOAuthBinding(request);
    const outcome = await this.complete.execute({ provider, ...callback, browserSecret });
    if (browserSecret !== undefined && !(outcome.kind === 'invalid_state' && outcome.rejection === 'other_browser')) {
      this.cookies.clearOAuthBinding(response);
    }
    if (outcome.kind === 'connected') this.history.startFor(outcome.companyId);
    const [status, title, body] = render(outcome);
    sendPage(response, status, title, body);
  }
}

function render(outcome: ConnectionOutcome): [number, string, Html] {
  switch (outcome.kind) {
    case 'connected': {
      const name = PROVIDER_NAMES[outcome.provider];
      const at = outcome.externalCompanyName ?? outcome.externalCompanyId ?? '';
      const context = outcome.context
        ? html`<p>
            Fetched the chart: ${outcome.context.accounts} accounts, ${outcome.context.vatTypes} VAT types,
            ${outcome.context.departments} departments, ${outcome.context.employees} employees.
          </p>`
        : html`<p class="bad">
            The chart could not be fetched yet (${outcome.contextError ?? 'provider error'}); it is fetched on first
            use, or refresh it with POST /v1/config/context/refresh.
          </p>`;
      return [
        200,
        `${name} connected`,
        html`<p class="ok">
            Company <code>${outcome.companyId}</code> is now connected to ${name}${at ? html` (${at})` : ''}. The tokens
            are stored encrypted.
          </p>
          ${context}
          <p>You can close this window.</p>`,
      ];
    }
    case 'consent_refused':
      return [
        403,
        `${PROVIDER_NAMES[outcome.provider]} was not connected`,
        html`<p class="bad">Access was refused at ${PROVIDER_NAMES[outcome.provider]}. Nothing was stored.</p>`,
      ];
    case 'invalid_state':
      return [400, 'Nothing was connected', html`<p class="bad">${STATE_MESSAGES[outcome.rejection]}</p>`];
    case 'grant_refused':
      return [
        400,
        `${PROVIDER_NAMES[outcome.provider]} was not connected`,
        html`<p class="bad">
          ${PROVIDER_NAMES[outcome.provider]} refused the authorisation: ${outcome.reason}. Nothing was stored.
        </p>`,
      ];
    case 'provider_failed':
      return [
        502,
        `${PROVIDER_NAMES[outcome.provider]} was not connected`,
        html`<p class="bad">
          ${PROVIDER_NAMES[outcome.provider]} could not be reached: ${outcome.reason}. Nothing was stored; try again in
          a moment.
        </p>`,
      ];
  }
}
