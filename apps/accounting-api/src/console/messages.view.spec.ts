import { DEFAULT_COMPANY_SETTINGS } from '@app/domain';
import type { OutboxMessage } from '@app/notifications';
import type { ConsoleViewer } from './console-page';
import { renderMessagesPage, type MessagesPageView } from './messages.view';

const viewer: ConsoleViewer = {
  identity: {
    actor: 'mona@example.no',
    company: 'c1',
    channel: 'web',
    role: 'manager',
    permissions: ['monitor'],
    tokenExpiresAt: new Date('2026-11-20T10:00:00Z'),
  },
  csrf: 'csrf-token',
  companyName: 'Fjord <AS>',
  locale: 'en-GB',
};

function rejection(overrides: Partial<OutboxMessage> = {}): OutboxMessage {
  return {
    id: 'm1',
    companyId: 'c1',
    target: 'user_thread',
    kind: 'proposal_rejected',
    payload: {
      proposalId: 'p1',
      correlationId: 'k1',
      merchant: 'Kaffe <img src=x>',
      amount: '99.00',
      currency: 'NOK',
      reason: 'private',
      rejectedBy: 'rita@example.no',
      actor: 'ola@example.no',
      thread: null,
    },
    attempts: 0,
    nextAttemptAt: new Date('2026-11-20T09:00:00Z'),
    deliveredAt: null,
    deadAt: null,
    lastError: null,
    createdAt: new Date('2026-11-20T09:00:00Z'),
    ...overrides,
  } as OutboxMessage;
}

function render(view: Partial<MessagesPageView>): string {
  return renderMessagesPage({
    viewer,
    messages: [],
    settings: DEFAULT_COMPANY_SETTINGS,
    developmentChannel: false,
    shown: 100,
    ...view,
  }).value;
}

describe('renderMessagesPage', () => {
  it('says when nothing was sent yet, and escapes the company name', () => {
    const page = render({});
    expect(page).toContain('The service has sent no message for this company yet.');
    expect(page).toContain('Fjord &lt;AS&gt;');
    expect(page).not.toContain('Fjord <AS>');
  });

  it('shows each message escaped, with its delivery state', () => {
    const page = render({
      messages: [
        rejection(),
        rejection({ id: 'm2', attempts: 5, deadAt: new Date('2026-11-20T10:00:00Z'), lastError: '<503>' }),
      ],
    });
    expect(page).toContain('data-status="pending"');
    expect(page).toContain('data-status="dead"');
    expect(page).toContain('Kaffe &lt;img src=x&gt;');
    expect(page).not.toContain('<img src=x>');
    expect(page).toContain('Gave up after 5 attempts: &lt;503&gt;');
  });

  it('names the kind of a configured channel but never its URL', () => {
    const url = 'https://hooks.slack.com/services/T0/B0/secret';
    const page = render({
      messages: [rejection()],
      settings: { ...DEFAULT_COMPANY_SETTINGS, gatewayCallback: { kind: 'slack', url } },
    });
    expect(page).toContain('User’s thread (gateway) (slack)');
    expect(page).not.toContain('secret');
  });

  it('says where a message without a channel goes', () => {
    expect(render({ messages: [rejection()] })).toContain('(not configured)');
    expect(render({ messages: [rejection()], developmentChannel: true })).toContain('(development channel)');
  });
});
