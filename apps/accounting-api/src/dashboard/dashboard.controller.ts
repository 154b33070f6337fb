import { Controller, Get, Res } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiProduces, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { PROVIDER_KINDS, type Identity } from '@app/domain';
import { ConnectionOverview, StartConnection } from '@app/application';
import { Access } from '../auth/access.decorator';
import { CurrentIdentity } from '../auth/current-identity.decorator';
import { html, sendPage } from '../onboarding/html';

const NAMES = { tripletex: 'Tripletex', fiken: 'Fiken' } as const;

/**
 * The admin page of the spec's onboarding ("an admin chooses to connect a provider on the
 * dashboard"): the company's connection and context, and one link per provider to its consent
 * screen. Each link carries a fresh single-use state valid for 10 minutes; the page has no script
 * and holds no token.
 */
@ApiTags('onboarding')
@Controller('v1/dashboard')
export class DashboardController {
  constructor(
    private readonly overview: ConnectionOverview,
    private readonly start: StartConnection,
  ) {}

  @Get()
  @Access('config', 'admin')
  @ApiOperation({ summary: 'The admin dashboard (HTML): connection status and links to connect Tripletex or Fiken' })
  @ApiProduces('text/html')
  @ApiOkResponse({ description: 'an HTML page' })
  async dashboard(@CurrentIdentity() identity: Identity, @Res() response: Response): Promise<void> {
    const view = await this.overview.execute(identity.company);
    const links = [];
    for (const provider of PROVIDER_KINDS) {
      const { authorizeUrl } = await this.start.execute(identity, provider);
      const verb = view.connection?.provider === provider ? 'Reconnect' : 'Connect';
      links.push(html`<li><a href="${authorizeUrl}">${verb} ${NAMES[provider]}</a></li>`);
    }
    const connection = view.connection;
    const status = connection
      ? html`<table>
          <tr>
            <th>Provider</th>
            <td>${NAMES[connection.provider]}</td>
          </tr>
          <tr>
            <th>Status</th>
            <td class="${connection.status === 'connected' ? 'ok' : 'bad'}">
              ${connection.status === 'connected' ? 'connected' : 'needs re-authorisation'}
            </td>
          </tr>
          <tr>
            <th>Company at the provider</th>
            <td>${connection.externalCompanyName ?? connection.externalCompanyId ?? '—'}</td>
          </tr>
          <tr>
            <th>Connected</th>
            <td>${connection.connectedAt.toISOString()} by ${connection.connectedBy}</td>
          </tr>
          ${
            connection.reauthorizationReason
              ? html`<tr>
                  <th>Why</th>
                  <td>${connection.reauthorizationReason}</td>
                </tr>`
              : html``
          }
        </table>`
      : html`<p class="bad">No accounting provider is connected yet.</p>`;
    const context = view.context
      ? html`<p>
          Chart fetched ${view.context.fetchedAt.toISOString()}: ${view.context.accounts} accounts,
          ${view.context.vatTypes} VAT types, ${view.context.departments} departments, ${view.context.employees}
          employees.
        </p>`
      : html`<p>No chart fetched yet.</p>`;
    sendPage(
      response,
      200,
      `${view.company.name}: accounting connection`,
      html`<h2>Connection</h2>
        ${status}
        <h2>Context</h2>
        ${context}
        <h2>Employees</h2>
        <p>${view.mappedEmployees} mapped (GET/PUT /v1/config/employees).</p>
        <h2>Connect</h2>
        <p>
          Each link is valid once, for 10 minutes. A company books into one provider: connecting another replaces the
          connection.
        </p>
        <ul>
          ${links}
        </ul>`,
    );
  }
}
