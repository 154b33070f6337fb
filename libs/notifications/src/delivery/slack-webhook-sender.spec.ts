import { renderSlackMessage } from '../rendering/slack-message.renderer';
import { aRejectedPayload } from '@app/testing';
import { TestWebhookReceiver, respond } from '@app/testing';
import { SlackWebhookSender } from './slack-webhook-sender';

describe('SlackWebhookSender', () => {
  let receiver: TestWebhookReceiver;
  const message = renderSlackMessage({ kind: 'proposal_rejected', payload: aRejectedPayload() });

  beforeEach(async () => {
    receiver = await TestWebhookReceiver.start();
  });

  afterEach(async () => {
    await receiver.close();
  });

  it('posts { text, blocks } as JSON to the incoming-webhook URL, unsigned', async () => {
    const result = await new SlackWebhookSender({ allowInternalTargets: true }).send({
      url: receiver.url('/services/T000/B000/XXXX'),
      message,
    });

    expect(result).toEqual({ ok: true, status: 200 });
    const [request] = receiver.requests;
    expect(request.method).toBe('POST');
    expect(request.path).toBe('/services/T000/B000/XXXX');
    expect(request.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(request.headers['x-signature']).toBeUndefined();
    const body = receiver.json<{ text: string; blocks: { type: string }[] }>(request);
    expect(Object.keys(body).sort()).toEqual(['blocks', 'text']);
    expect(body.text).toContain('Rejected: Spotify AB, 119.00 NOK. Reason: wrong amount.');
    expect(body.blocks.map((b) => b.type)).toEqual(['section', 'context']);
  });

  it("keeps Slack's error code, never the URL", async () => {
    receiver.otherwise(respond(404, 'no_service'));

    const result = await new SlackWebhookSender({ allowInternalTargets: true }).send({
      url: receiver.url('/services/T000/B000/SECRETPART'),
      message,
    });

    expect(result).toEqual({ ok: false, permanent: true, error: 'http 404 no_service', status: 404 });
    expect(JSON.stringify(result)).not.toContain('SECRETPART');
  });

  it('ignores a response body that is not a short code', async () => {
    receiver.otherwise(respond(500, '<html>Internal error at /services/T000/B000/SECRETPART</html>'));

    const result = await new SlackWebhookSender({ allowInternalTargets: true }).send({
      url: receiver.url('/services/T000/B000/SECRETPART'),
      message,
    });

    expect(result).toEqual({ ok: false, permanent: false, error: 'http 500', status: 500 });
  });

  it('times out on a hanging Slack', async () => {
    receiver.otherwise({ type: 'hang' });

    const result = await new SlackWebhookSender({ timeoutMs: 100, allowInternalTargets: true }).send({
      url: receiver.url(),
      message,
    });

    expect(result).toEqual({ ok: false, permanent: false, error: 'timed out after 100 ms' });
  });
});
