import { createHmac } from 'node:crypto';
import { inspect } from 'node:util';
import { renderWebhookEnvelope } from '../rendering/webhook-envelope.renderer';
import { anAutoApprovedPayload } from '@app/testing';
import { TestWebhookReceiver, respond } from '@app/testing';
import { parseRetryAfter } from './http-post';
import { WebhookSecret, verifyWebhookSignature } from './webhook-secret';
import { WebhookSender } from './webhook-sender';

const SECRET_TEXT = 's3cr3t-company-key-do-not-leak';

function envelope(id = 'msg-0193') {
  return renderWebhookEnvelope(
    {
      id,
      companyId: 'acme',
      target: 'user_thread',
      kind: 'proposal_auto_approved',
      // Non-ASCII on purpose: the signature is over UTF-8 bytes, not UTF-16 characters.
      payload: anAutoApprovedPayload({ merchant: 'Kjøkkenhjørnet AS — «kaffe»' }),
      attempts: 1,
      createdAt: new Date('2026-11-20T07:00:00.000Z'),
    },
    new Date('2026-11-20T07:00:01.000Z'),
  );
}

describe('WebhookSender', () => {
  let receiver: TestWebhookReceiver;
  const secret = WebhookSecret.from(SECRET_TEXT);

  beforeEach(async () => {
    receiver = await TestWebhookReceiver.start();
  });

  afterEach(async () => {
    await receiver.close();
  });

  it('signs the exact raw body bytes with HMAC-SHA256 of the company secret', async () => {
    const result = await new WebhookSender({ allowInternalTargets: true }).send({
      url: receiver.url(),
      envelope: envelope(),
      secret,
    });

    expect(result).toEqual({ ok: true, status: 200 });
    const [request] = receiver.requests;
    const expected = createHmac('sha256', SECRET_TEXT).update(request.rawBody).digest('hex');
    expect(request.headers['x-signature']).toBe(`sha256=${expected}`);
    expect(verifyWebhookSignature(request.rawBody, request.headers['x-signature'] as string, secret)).toBe(true);
    expect(
      verifyWebhookSignature(request.rawBody, request.headers['x-signature'] as string, WebhookSecret.from('other')),
    ).toBe(false);
    const tampered = Buffer.from(request.rawBody.toString('utf8').replace('119.00', '911.00'), 'utf8');
    expect(verifyWebhookSignature(tampered, request.headers['x-signature'] as string, secret)).toBe(false);
  });

  it('sends the envelope as JSON with delivery id, attempt and timestamp headers', async () => {
    await new WebhookSender({ allowInternalTargets: true }).send({
      url: receiver.url('/gateway/callback'),
      envelope: envelope('msg-42'),
      secret,
    });

    const [request] = receiver.requests;
    expect(request.method).toBe('POST');
    expect(request.path).toBe('/gateway/callback');
    expect(request.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(request.headers['x-delivery-id']).toBe('msg-42');
    expect(request.headers['x-delivery-attempt']).toBe('1');
    expect(request.headers['x-timestamp']).toBe(String(Date.parse('2026-11-20T07:00:01.000Z') / 1000));
    expect(receiver.json(request)).toMatchObject({
      id: 'msg-42',
      type: 'proposal_auto_approved',
      thread: { channel: 'slack', threadId: 'C01/1700000000.000100' },
      data: { merchant: 'Kjøkkenhjørnet AS — «kaffe»', amount: '119.00', confidence: 0.96 },
      sentAt: '2026-11-20T07:00:01.000Z',
    });
  });

  it('never puts the secret in the body or any header', async () => {
    await new WebhookSender({ allowInternalTargets: true }).send({ url: receiver.url(), envelope: envelope(), secret });

    const [request] = receiver.requests;
    expect(request.rawBody.toString('utf8')).not.toContain(SECRET_TEXT);
    expect(JSON.stringify(request.headers)).not.toContain(SECRET_TEXT);
    expect(JSON.stringify({ secret })).not.toContain(SECRET_TEXT);
    expect(String(secret)).not.toContain(SECRET_TEXT);
    expect(inspect({ secret })).not.toContain(SECRET_TEXT);
  });

  it.each([
    [500, false],
    [502, false],
    [503, false],
    [408, false],
    [429, false],
    [400, true],
    [401, true],
    [404, true],
    [410, true],
    [301, true],
  ])('treats HTTP %p as a failure, permanent: %p', async (status, permanent) => {
    receiver.otherwise(respond(status, 'nope', status === 301 ? { location: 'http://127.0.0.1:1/elsewhere' } : {}));

    const result = await new WebhookSender({ allowInternalTargets: true }).send({
      url: receiver.url(),
      envelope: envelope(),
      secret,
    });

    expect(result).toEqual({ ok: false, permanent, error: `http ${status}`, status });
    expect(receiver.requests).toHaveLength(1);
  });

  it('passes on Retry-After from a 429', async () => {
    receiver.otherwise(respond(429, '', { 'retry-after': '30' }));

    const result = await new WebhookSender({ allowInternalTargets: true }).send({
      url: receiver.url(),
      envelope: envelope(),
      secret,
    });

    expect(result).toMatchObject({ ok: false, permanent: false, retryAfterMs: 30_000 });
  });

  it('gives up on a receiver that hangs after the timeout, as a transient failure', async () => {
    receiver.otherwise({ type: 'hang' });
    const started = Date.now();

    const result = await new WebhookSender({ timeoutMs: 150, allowInternalTargets: true }).send({
      url: receiver.url(),
      envelope: envelope(),
      secret,
    });

    expect(result).toEqual({ ok: false, permanent: false, error: 'timed out after 150 ms' });
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it('treats a reset connection as a transient network error without quoting the address', async () => {
    receiver.otherwise({ type: 'reset' });

    const result = await new WebhookSender({ allowInternalTargets: true }).send({
      url: receiver.url('/hook?token=abc'),
      envelope: envelope(),
      secret,
    });

    expect(result).toMatchObject({ ok: false, permanent: false });
    expect(result.ok === false && result.error).toMatch(/^network error/);
    expect(JSON.stringify(result)).not.toContain('127.0.0.1');
    expect(JSON.stringify(result)).not.toContain('token=abc');
  });

  it('treats a refused connection as transient', async () => {
    const url = receiver.url();
    await receiver.close();

    const result = await new WebhookSender({ allowInternalTargets: true }).send({ url, envelope: envelope(), secret });

    expect(result).toEqual({ ok: false, permanent: false, error: 'network error: ECONNREFUSED' });
  });

  it('refuses a url that is not http(s) without sending', async () => {
    const result = await new WebhookSender({ allowInternalTargets: true }).send({
      url: 'file:///etc/passwd',
      envelope: envelope(),
      secret,
    });
    expect(result).toEqual({ ok: false, permanent: true, error: 'unsupported channel url scheme file:' });
  });
});

describe('parseRetryAfter', () => {
  const now = new Date('2026-11-20T07:00:00.000Z');

  it('reads seconds and HTTP dates, and ignores garbage', () => {
    expect(parseRetryAfter('120', now)).toBe(120_000);
    expect(parseRetryAfter('Fri, 20 Nov 2026 07:01:00 GMT', now)).toBe(60_000);
    expect(parseRetryAfter('soon', now)).toBeUndefined();
    expect(parseRetryAfter(null, now)).toBeUndefined();
  });
});
