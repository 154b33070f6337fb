import { Controller, Get, Req, Res, UseFilters } from '@nestjs/common';
import type { Response } from 'express';
import { CompanySettingsStore } from '@app/domain';
import { OutboxRepository, outboxStatus, renderText, type NotificationTarget } from '@app/notifications';
import { ConsolePage } from '../auth/access.decorator';
import { AppConfig } from '../config/app-config';
import { html } from '../onboarding/html';
import { ConsoleExceptionFilter } from './console-exception.filter';
import { formatInstant } from './console-format';
import { consolePage, sendConsole } from './console-page';
import type { ConsoleRequest } from './console-session.guard';
import { ConsoleViewers } from './console-viewers';

/** How many of the newest messages the page shows. */
const SHOWN = 100;

const TARGETS: Record<
  NotificationTarget,
  { label: string; setting: 'reviewChannel' | 'invoicesChannel' | 'gatewayCallback' }
> = {
  review: { label: 'Review channel', setting: 'reviewChannel' },
  invoices: { label: 'Invoices channel', setting: 'invoicesChannel' },
  user_thread: { label: 'User’s thread (gateway)', setting: 'gatewayCallback' },
};

/**
 * What the service sent (or is sending) to each of the company's channels, newest first: the
 * message as the channel shows it, and its delivery state from the notification outbox. Channel
 * URLs are not shown (a Slack webhook URL is a secret).
 */
@Controller('console/messages')
@UseFilters(ConsoleExceptionFilter)
export class MessagesConsoleController {
  constructor(
    private readonly viewers: ConsoleViewers,
    private readonly outbox: OutboxRepository,
    private readonly settings: CompanySettingsStore,
    private readonly config: AppConfig,
  ) {}

  @Get()
  @ConsolePage('monitor', 'manager')
  async page(@Req() request: ConsoleRequest, @Res() response: Response): Promise<void> {
    const viewer = await this.viewers.of(request);
    const company = viewer.identity.company;
    const [messages, settings] = await Promise.all([
      this.outbox.listRecent(company, SHOWN),
      this.settings.get(company),
    ]);
    const l = viewer.locale;
    const rows = messages.map((m) => {
      const target = TARGETS[m.target];
      const channel = settings[target.setting];
      const status = outboxStatus(m);
      const state =
        status === 'delivered'
          ? html`<span class="ok">Delivered ${formatInstant(l, m.deliveredAt!)}</span>`
          : status === 'dead'
            ? html`<span class="bad">Gave up after ${m.attempts} attempts: ${m.lastError ?? ''}</span>`
            : html`<span>Waiting${m.attempts > 0 ? html` (${m.attempts} attempts; ${m.lastError ?? ''})` : ''}</span>`;
      return html`<tr data-status="${status}">
        <td><time datetime="${m.createdAt.toISOString()}">${formatInstant(l, m.createdAt)}</time></td>
        <td>
          ${target.label}${
            channel
              ? html` (${channel.kind})`
              : this.config.developmentChannel
                ? html` (development channel)`
                : html` <span class="bad">(not configured)</span>`
          }
        </td>
        <td>${renderText(m)}</td>
        <td>${state}</td>
      </tr>`;
    });
    const body = html`<p class="hint">
        The newest ${SHOWN} messages to the company's channels, with their delivery state.
      </p>
      ${
        rows.length
          ? html`<table>
              <thead>
                <tr>
                  <th scope="col">When</th>
                  <th scope="col">Channel</th>
                  <th scope="col">Message</th>
                  <th scope="col">Delivery</th>
                </tr>
              </thead>
              <tbody>
                ${rows}
              </tbody>
            </table>`
          : html`<p class="empty">The service has sent no message for this company yet.</p>`
      }`;
    sendConsole(response, 200, consolePage(viewer, 'messages', 'Messages', body));
  }
}
