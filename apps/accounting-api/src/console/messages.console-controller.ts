import { Controller, Get, Req, Res, UseFilters } from '@nestjs/common';
import type { Response } from 'express';
import { CompanySettingsStore } from '@app/domain';
import {
  OutboxRepository,
  outboxStatus,
  renderText,
  type NotificationTarget,
  type OutboxMessage,
} from '@app/notifications';
import { ConsolePage } from '../auth/access.decorator';
import { AppConfig } from '../config/app-config';
import { html, type Html } from '../onboarding/html';
import { ConsoleExceptionFilter } from './console-exception.filter';
import { formatInstant, type ConsoleLocale } from './console-format';
import { consolePage, sendConsole } from './console-page';
import { consoleTable, type ConsoleColumn } from './console-table';
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
    const columns: ConsoleColumn<OutboxMessage>[] = [
      {
        heading: 'When',
        cell: (m) => html`<time datetime="${m.createdAt.toISOString()}">${formatInstant(l, m.createdAt)}</time>`,
      },
      {
        heading: 'Channel',
        cell: (m) => {
          const target = TARGETS[m.target];
          const channel = settings[target.setting];
          return html`${target.label}${
            channel
              ? html` (${channel.kind})`
              : this.config.developmentChannel
                ? html` (development channel)`
                : html` <span class="bad">(not configured)</span>`
          }`;
        },
      },
      { heading: 'Message', cell: (m) => renderText(m) },
      { heading: 'Delivery', cell: (m) => deliveryState(m, l) },
    ];
    const body = html`<p class="hint">
        The newest ${SHOWN} messages to the company's channels, with their delivery state.
      </p>
      ${
        messages.length
          ? consoleTable(columns, messages, { rowAttributes: (m) => html`data-status="${outboxStatus(m)}"` })
          : html`<p class="empty">The service has sent no message for this company yet.</p>`
      }`;
    sendConsole(response, 200, consolePage(viewer, 'messages', 'Messages', body));
  }
}

function deliveryState(m: OutboxMessage, l: ConsoleLocale): Html {
  const status = outboxStatus(m);
  return status === 'delivered'
    ? html`<span class="ok">Delivered ${formatInstant(l, m.deliveredAt!)}</span>`
    : status === 'dead'
      ? html`<span class="bad">Gave up after ${m.attempts} attempts: ${m.lastError ?? ''}</span>`
      : html`<span>Waiting${m.attempts > 0 ? html` (${m.attempts} attempts; ${m.lastError ?? ''})` : ''}</span>`;
}
