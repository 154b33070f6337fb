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
    expect(page).toContain('User’s thread (gateway) (Slack)');
    expect(page).not.toContain('secret');
  });

  it('shows every time in Oslo time in words, in a <time> with the exact value, and links the proposal named', () => {
    const id = '0b8f6f4e-3c1a-4d2e-9f00-123456789abc';
    const page = render({
      messages: [
        rejection({
          id: 'm3',
          kind: 'proposal_auto_approved',
          payload: {
            proposalId: id,
            correlationId: 'k1',
            merchant: 'Kiwi',
            amount: '120.00',
            currency: 'NOK',
            confidence: 0.95,
            reasons: [],
            executeAfter: '2026-11-28T16:05:00.000Z',
            actor: 'ola@example.no',
            thread: null,
          },
          createdAt: new Date('2026-11-28T15:05:00Z'),
          deliveredAt: new Date('2026-11-28T15:06:00Z'),
        } as Partial<OutboxMessage>),
      ],
    });
    expect(page).toContain('<time datetime="2026-11-28T15:05:00.000Z">28 Nov 2026, 16:05</time>');
    expect(page).toContain('Delivered <time datetime="2026-11-28T15:06:00.000Z">28 Nov 2026, 16:06</time>');
    expect(page).toContain('booked after <time datetime="2026-11-28T16:05:00.000Z">28 Nov 2026, 17:05</time>');
    expect(page).not.toMatch(/>[^<]*\d{4}-\d{2}-\d{2}T/);
  });

  it('says where a message without a channel goes', () => {
    expect(render({ messages: [rejection()] })).toContain('(not configured)');
    expect(render({ messages: [rejection()], developmentChannel: true })).toContain('(development channel)');
  });
});
