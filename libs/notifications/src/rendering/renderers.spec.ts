import { type NotificationContent, UnknownNotificationKind } from '../message/notification';
import { aDailyCheckPayload, aNeedsReviewPayload, aRejectedPayload, anAutoApprovedPayload } from '@app/testing';
import { escapeMrkdwn, percent, truncate } from './format';
import { renderText } from './notification-text';
import { type SlackBlock, renderSlackMessage } from './slack-message.renderer';
import { renderWebhookEnvelope } from './webhook-envelope.renderer';

const blockText = (blocks: SlackBlock[]): string =>
  blocks
    .map((b) => {
      if (b.type === 'section') return [b.text.text, ...(b.fields ?? []).map((f) => f.text)].join('\n');
      if (b.type === 'context') return b.elements.map((e) => e.text).join('\n');
      return '';
    })
    .join('\n');

describe('percent', () => {
  it.each([
    [0, '0'],
    [0.29, '29'],
    [0.7, '70'],
    [0.8999, '89'],
    [0.9, '90'],
    [0.96, '96'],
    [0.999, '99'],
    [1, '100'],
    [1.2, '100'],
    [-0.1, '0'],
  ])('shows %p as %p without rounding up across a boundary', (score, shown) => {
    expect(percent(score)).toBe(shown);
  });
});

describe('format helpers', () => {
  it('escapes Slack control characters so user text cannot mention @channel or forge links', () => {
    expect(escapeMrkdwn('<!channel> & <https://evil|click>')).toBe('&lt;!channel&gt; &amp; &lt;https://evil|click&gt;');
  });

  it('truncates with an ellipsis within the limit', () => {
    expect(truncate('abcdef', 4)).toBe('abc…');
    expect(truncate('abc', 4)).toBe('abc');
  });
});

describe('renderText', () => {
  it('reports an auto-approval with the confidence as a percentage', () => {
    const text = renderText({ kind: 'proposal_auto_approved', payload: anAutoApprovedPayload({ confidence: 0.96 }) });
    expect(text).toContain('Auto-approved with 96 % confidence');
    expect(text).toContain('Spotify AB, 119.00 NOK');
    expect(text).toContain('2026-11-20T10:15:00.000Z');
  });

  it('says a rejection and its reason', () => {
    const text = renderText({ kind: 'proposal_rejected', payload: aRejectedPayload({ reason: 'wrong amount' }) });
    expect(text).toMatch(/^Rejected: Spotify AB, 119\.00 NOK\. Reason: wrong amount\./);
  });

  it('names the proposal, merchant, decimal amount and score of a review request', () => {
    const text = renderText({
      kind: 'proposal_needs_review',
      payload: aNeedsReviewPayload({ confidence: 0.72, route: 'review_recommended' }),
    });
    expect(text).toBe(
      'Review needed: Kontorrekvisita AS, 1249.50 NOK, 72 % confidence (review recommended). ' +
        'Proposal 0193a0c0-0000-7000-8000-000000000001.',
    );
  });

  it('counts the daily check results, and says so when there are none', () => {
    expect(renderText({ kind: 'daily_check', payload: aDailyCheckPayload() })).toBe(
      'Daily check 2026-11-20 (tripletex): 1 purchase without a receipt since 2026-10-21, 1 overdue invoice.',
    );
    expect(
      renderText({ kind: 'daily_check', payload: aDailyCheckPayload({ missingReceipts: [], overdueInvoices: [] }) }),
    ).toContain('no purchases without a receipt since 2026-10-21, no overdue invoices');
  });

  it('tells an admin how to reconnect a provider', () => {
    const text = renderText({
      kind: 'provider_reauthorisation_needed',
      payload: { provider: 'fiken', reason: 'refresh token revoked' },
    });
    expect(text).toContain('POST /v1/config/providers/fiken/connect');
  });

  it('refuses a kind it does not know', () => {
    expect(() => renderText({ kind: 'proposal_exploded', payload: {} } as unknown as NotificationContent)).toThrow(
      UnknownNotificationKind,
    );
  });
});

describe('renderSlackMessage', () => {
  it('renders a review request with merchant, amount, score, reasons, ids and a link', () => {
    const message = renderSlackMessage({
      kind: 'proposal_needs_review',
      payload: aNeedsReviewPayload({
        reviewUrl: 'https://review.example.no/proposals/p1',
        reasons: ['unknown merchant: kontorrekvisita', 'amount above usual range'],
      }),
    });

    expect(message.text).toContain('Review needed: Kontorrekvisita AS, 1249.50 NOK, 0 % confidence (review required)');
    const all = blockText(message.blocks);
    expect(all).toContain('<https://review.example.no/proposals/p1|proposal 0193a0c0-0000-7000-8000-000000000001>');
    expect(all).toContain('*Merchant*\nKontorrekvisita AS');
    expect(all).toContain('*Amount*\n1249.50 NOK');
    expect(all).toContain('*Confidence*\n0 %');
    expect(all).toContain('• amount above usual range');
    expect(all).toContain('correlation `0193a0c0-0000-7000-8000-0000000000c1`');
  });

  it('renders every kind as text plus valid section/context blocks within Slack limits', () => {
    const contents: NotificationContent[] = [
      { kind: 'proposal_needs_review', payload: aNeedsReviewPayload() },
      { kind: 'proposal_auto_approved', payload: anAutoApprovedPayload() },
      { kind: 'proposal_rejected', payload: aRejectedPayload() },
      {
        kind: 'execution_failed',
        payload: {
          ...aNeedsReviewPayload(),
          provider: 'tripletex',
          errorCode: 'unknown_account_code',
          errorMessage: 'account 6800 is closed',
        },
      },
      { kind: 'daily_check', payload: aDailyCheckPayload() },
      { kind: 'provider_reauthorisation_needed', payload: { provider: 'tripletex', reason: 'session expired' } },
    ];
    for (const content of contents) {
      const message = renderSlackMessage(content);
      expect(message.text.length).toBeGreaterThan(0);
      expect(message.blocks.length).toBeGreaterThan(0);
      expect(message.blocks.length).toBeLessThanOrEqual(50);
      for (const block of message.blocks) {
        if (block.type === 'section') {
          expect(block.text.text.length).toBeLessThanOrEqual(3000);
          expect((block.fields ?? []).length).toBeLessThanOrEqual(10);
        }
      }
    }
  });

  it('escapes merchant names and reasons so they cannot ping a channel', () => {
    const message = renderSlackMessage({
      kind: 'proposal_rejected',
      payload: aRejectedPayload({ merchant: '<!channel> Shop', reason: 'see <https://evil.example|here>' }),
    });
    const all = `${message.text}\n${blockText(message.blocks)}`;
    expect(all).not.toContain('<!channel>');
    expect(all).not.toContain('<https://evil.example|here>');
    expect(all).toContain('&lt;!channel&gt; Shop');
    expect(all).toContain('*Reason:* see &lt;https://evil.example|here&gt;');
  });

  it('lists at most 15 daily-check items and says how many more there are', () => {
    const missingReceipts = Array.from({ length: 40 }, (_, i) => ({
      id: `v-${i}`,
      date: '2026-11-02',
      description: `Posting ${i}`,
      amount: '10.00',
      currency: 'NOK',
    }));
    const message = renderSlackMessage({ kind: 'daily_check', payload: aDailyCheckPayload({ missingReceipts }) });
    const all = blockText(message.blocks);
    expect(all).toContain('Posting 14');
    expect(all).not.toContain('Posting 15 ');
    expect(all).toContain('…and 25 more');
  });
});

describe('renderWebhookEnvelope', () => {
  const base = {
    id: 'msg-1',
    companyId: 'acme',
    attempts: 3,
    createdAt: new Date('2026-11-20T07:00:00.000Z'),
  };

  it('carries the thread for user_thread deliveries, the payload as data and the summary text', () => {
    const payload = anAutoApprovedPayload();
    const envelope = renderWebhookEnvelope(
      { ...base, target: 'user_thread', kind: 'proposal_auto_approved', payload },
      new Date('2026-11-20T07:00:05.000Z'),
    );

    expect(envelope).toEqual({
      id: 'msg-1',
      type: 'proposal_auto_approved',
      companyId: 'acme',
      target: 'user_thread',
      thread: { channel: 'slack', threadId: 'C01/1700000000.000100' },
      text: renderText({ kind: 'proposal_auto_approved', payload }),
      data: payload,
      attempt: 3,
      createdAt: '2026-11-20T07:00:00.000Z',
      sentAt: '2026-11-20T07:00:05.000Z',
    });
  });

  it('has no thread for channel deliveries', () => {
    const envelope = renderWebhookEnvelope(
      { ...base, target: 'review', kind: 'proposal_needs_review', payload: aNeedsReviewPayload() },
      new Date(),
    );
    expect(envelope.thread).toBeNull();
  });
});
