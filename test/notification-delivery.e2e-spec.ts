import { TestWebhookReceiver, type ReceivedRequest } from '@app/testing';
import { WebhookSecret, verifyWebhookSignature } from '@app/notifications';
import { buildCli } from '../apps/accounting-api/src/cli';
import { startTestApp, type TestApp } from './support/test-app';
import { api, proposalBody } from './support/proposals';

/** The outbox reaches the company's channels: the dispatcher runs with the service. */
describe('notification delivery from the outbox', () => {
  let t: TestApp;
  let receiver: TestWebhookReceiver;

  beforeAll(async () => {
    receiver = await TestWebhookReceiver.start();
    t = await startTestApp({ env: { OUTBOX_DISPATCH_ENABLED: 'true', OUTBOX_POLL_MS: '50' } });
    const res = await api(t).put('/v1/config/company', 'admin', {
      reviewChannel: { kind: 'webhook', url: receiver.url('/review') },
      gatewayCallback: { kind: 'webhook', url: receiver.url('/gateway') },
    });
    expect(res.status).toBe(200);
  });
  afterAll(async () => {
    await t.close();
    await receiver.close();
  });

  const delivered = async (path: string, type: string): Promise<ReceivedRequest> => {
    for (let i = 0; i < 200; i++) {
      const hit = receiver.requests.find((r) => r.path === path && JSON.parse(r.rawBody.toString()).type === type);
      if (hit) return hit;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error(`nothing of type ${type} reached ${path}`);
  };

  const secret = async (): Promise<string> => {
    const lines: string[] = [];
    await buildCli(
      () => t.config,
      (line) => lines.push(line),
    ).parseAsync(['node', 'cli', 'webhook-secret', '--company', t.company]);
    return lines[0]!;
  };

  it('posts a low-confidence proposal to the review channel, signed with the company secret', async () => {
    const submitted = await api(t).submit(proposalBody({ merchant: 'Brand New Supplier AS' }));
    expect(submitted.body.route).toBe('review_required');
    const request = await delivered('/review', 'proposal_needs_review');
    const key = WebhookSecret.from(await secret());
    expect(verifyWebhookSignature(request.rawBody, request.headers['x-signature'] as string, key)).toBe(true);
    expect(
      verifyWebhookSignature(
        request.rawBody,
        request.headers['x-signature'] as string,
        WebhookSecret.from('x'.repeat(64)),
      ),
    ).toBe(false);
    const body = JSON.parse(request.rawBody.toString());
    expect(body).toMatchObject({ companyId: t.company, target: 'review' });
    expect(body.data).toMatchObject({ proposalId: submitted.body.id });
    expect(request.headers['x-delivery-id']).toBe(body.id);
  });

  it('tells the user in their thread when a proposal is rejected, with the reason', async () => {
    const submitted = await api(t).submit(
      proposalBody({ merchant: 'Another Unknown Shop', thread: { channel: 'slack', threadId: 'C9/42' } }),
    );
    expect(
      (await api(t).post(`/v1/review/${submitted.body.id}/reject`, 'accountant', { reason: 'private purchase' }))
        .status,
    ).toBe(200);
    const body = JSON.parse((await delivered('/gateway', 'proposal_rejected')).rawBody.toString());
    expect(body.thread).toEqual({ channel: 'slack', threadId: 'C9/42' });
    expect(body.text).toContain('private purchase');
  });
});
