import type { CompanySettings } from '@app/domain';
import { outboxStatus, renderText, type NotificationTarget, type OutboxMessage } from '@app/notifications';
import { timeOf } from './console-format';
import { LABELS } from './console-labels';
import { consoleText } from './console-text';
import { consolePage, type ConsoleViewer } from './console-page';
import { consoleTable, type ConsoleColumn } from './console-table';
import { html, type Html } from './html';

/** What the messages page shows: the newest messages, and where each kind of message goes. */
export interface MessagesPageView {
  readonly viewer: ConsoleViewer;
  readonly messages: readonly OutboxMessage[];
  readonly settings: CompanySettings;
  /** Whether messages without a configured channel go to the development channel. */
  readonly developmentChannel: boolean;
  /** How many of the newest messages the page shows at most. */
  readonly shown: number;
}

const TARGETS: Record<
  NotificationTarget,
  { label: string; setting: 'reviewChannel' | 'invoicesChannel' | 'gatewayCallback' }
> = {
  review: { label: 'Review channel', setting: 'reviewChannel' },
  invoices: { label: 'Invoices channel', setting: 'invoicesChannel' },
  user_thread: { label: 'User’s thread (gateway)', setting: 'gatewayCallback' },
};

/**
 * The messages page (MessagesConsoleController). Channel URLs are not shown (a Slack webhook URL
 * is a secret): only the kind of channel.
 */
export function renderMessagesPage(view: MessagesPageView): Html {
  const { viewer, messages, settings, developmentChannel, shown } = view;
  const l = viewer.locale;
  const columns: ConsoleColumn<OutboxMessage>[] = [
    {
      heading: 'When',
      cell: (m) => timeOf(l, m.createdAt),
    },
    {
      heading: 'Channel',
      cell: (m) => {
        const target = TARGETS[m.target];
        const channel = settings[target.setting];
        return html`${target.label}${
          channel
            ? html` (${LABELS.webhook[channel.kind]})`
            : developmentChannel
              ? html` (development channel)`
              : html` <span class="bad">(not configured)</span>`
        }`;
      },
    },
    { heading: 'Message', cell: (m) => consoleText(viewer, renderText(m)) },
    { heading: 'Delivery', cell: (m) => deliveryState(viewer, m) },
  ];
  const body = html`<p class="hint">
      The newest ${shown} messages to the company's channels, with their delivery state.
    </p>
    ${
      messages.length
        ? consoleTable(columns, messages, { rowAttributes: (m) => html`data-status="${outboxStatus(m)}"` })
        : html`<p class="empty">The service has sent no message for this company yet.</p>`
    }`;
  return consolePage(viewer, 'messages', 'Messages', body);
}

function deliveryState(viewer: ConsoleViewer, m: OutboxMessage): Html {
  const status = outboxStatus(m);
  const error = consoleText(viewer, m.lastError ?? '');
  return status === 'delivered'
    ? html`<span class="ok">Delivered ${timeOf(viewer.locale, m.deliveredAt!)}</span>`
    : status === 'dead'
      ? html`<span class="bad">Gave up after ${m.attempts} attempts: ${error}</span>`
      : html`<span>Waiting${m.attempts > 0 ? html` (${m.attempts} attempts; ${error})` : ''}</span>`;
}
