import { renderWebhookEnvelope } from '../rendering/webhook-envelope.renderer';
import { anAutoApprovedPayload } from '@app/testing';
import { TestWebhookReceiver } from '@app/testing';
import type { LookupOptions } from 'node:dns';
import { publicOnlyLookup, type Resolver } from './public-egress';
import { WebhookSecret } from './webhook-secret';
import { WebhookSender } from './webhook-sender';
import { SlackWebhookSender } from './slack-webhook-sender';

const NOT_PUBLIC = 'channel url points to an address that is not public';

function envelope() {
  return renderWebhookEnvelope(
    {
      id: 'msg-egress',
      companyId: 'acme',
      target: 'user_thread',
      kind: 'proposal_auto_approved',
      payload: anAutoApprovedPayload(),
      attempts: 1,
      createdAt: new Date('2026-11-20T07:00:00.000Z'),
    },
    new Date('2026-11-20T07:00:01.000Z'),
  );
}

/** A resolver that knows a few names, as DNS would answer them; every lookup is recorded. */
function fakeResolver(answers: Record<string, string[]>): Resolver & { asked: string[] } {
  const asked: string[] = [];
  const resolve = async (hostname: string) => {
    asked.push(hostname);
    const addresses = answers[hostname];
    if (!addresses) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
    return addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  };
  return Object.assign(resolve, { asked });
}

/**
 * Production delivery (the senders' default): the address a webhook goes to must be public, whether
 * the URL names it literally or through a host name, which is checked on the address the socket
 * then connects to. The receiver listens on 127.0.0.1, so every refused request below would have
 * reached it.
 */
describe('webhook delivery to public addresses only', () => {
  let receiver: TestWebhookReceiver;
  const secret = WebhookSecret.from('s3cr3t-company-key');

  beforeEach(async () => {
    receiver = await TestWebhookReceiver.start();
  });

  afterEach(async () => {
    await receiver.close();
  });

  const port = () => new URL(receiver.url()).port;

  it.each([
    ['loopback', (p: string) => `http://127.0.0.1:${p}/hook`],
    ['IPv4-mapped loopback (the parser writes [::ffff:7f00:1])', (p: string) => `http://[::ffff:127.0.0.1]:${p}/hook`],
    ['IPv4-mapped metadata', () => 'http://[::ffff:a9fe:a9fe]/latest'],
    ['IPv4-compatible loopback', (p: string) => `http://[::7f00:1]:${p}/hook`],
    ['NAT64 loopback', (p: string) => `http://[64:ff9b::7f00:1]:${p}/hook`],
    ['6to4 loopback', (p: string) => `http://[2002:7f00:1::1]:${p}/hook`],
    ['an IETF protocol assignment', (p: string) => `http://192.0.0.1:${p}/hook`],
    ['IPv6 documentation', (p: string) => `http://[2001:db8::1]:${p}/hook`],
    ['IPv6 loopback', (p: string) => `http://[::1]:${p}/hook`],
  ])('refuses a literal %s address without sending anything', async (_label, url) => {
    const resolve = fakeResolver({});
    const result = await new WebhookSender({ resolve, timeoutMs: 2000 }).send({
      url: url(port()),
      envelope: envelope(),
      secret,
    });

    expect(result).toEqual({ ok: false, permanent: true, error: NOT_PUBLIC });
    expect(receiver.requests).toHaveLength(0);
  });

  it('refuses a name that resolves to loopback, checking the address the connection would use', async () => {
    const resolve = fakeResolver({ 'localtest.me': ['127.0.0.1'] });
    const sender = new WebhookSender({ resolve, timeoutMs: 2000 });

    const result = await sender.send({ url: `http://localtest.me:${port()}/hook`, envelope: envelope(), secret });

    expect(result).toEqual({ ok: false, permanent: true, error: NOT_PUBLIC });
    expect(resolve.asked).toEqual(['localtest.me']);
    expect(receiver.requests).toHaveLength(0);
    await sender.close();
  });

  it('refuses a name with any internal address among its answers, and one resolving to a mapped form', async () => {
    const resolve = fakeResolver({
      'mixed.example.test': ['93.184.216.34', '10.0.0.5'],
      'mapped.example.test': ['::ffff:127.0.0.1'],
    });
    const sender = new SlackWebhookSender({ resolve, timeoutMs: 2000 });

    for (const host of ['mixed.example.test', 'mapped.example.test']) {
      const result = await sender.send({
        url: `http://${host}:${port()}/services/T/B/X`,
        message: { text: 'hi', blocks: [] },
      });
      expect(result).toEqual({ ok: false, permanent: true, error: NOT_PUBLIC });
    }
    expect(receiver.requests).toHaveLength(0);
    await sender.close();
  });

  it('hands the socket exactly the checked addresses of a name that resolves to public ones only', async () => {
    // The lookup alone: a test must not connect to a public address.
    const lookup = publicOnlyLookup(fakeResolver({ 'public.example.test': ['93.184.216.34', '2606:2800:220:1::1'] }));
    const answer = (options: LookupOptions) =>
      new Promise<unknown[]>((resolve) =>
        lookup('public.example.test', options, (...args: unknown[]) => resolve(args)),
      );

    expect(await answer({ all: true })).toEqual([
      null,
      [
        { address: '93.184.216.34', family: 4 },
        { address: '2606:2800:220:1::1', family: 6 },
      ],
    ]);
    expect(await answer({ family: 6 })).toEqual([null, '2606:2800:220:1::1', 6]);
    const [error] = await new Promise<unknown[]>((resolve) =>
      publicOnlyLookup(fakeResolver({}))('nowhere.example.test', {}, (...args: unknown[]) => resolve(args)),
    );
    expect(error).toMatchObject({ code: 'ENOTFOUND' });
  });

  it('still delivers to a local receiver where internal targets are allowed (development)', async () => {
    const sender = new WebhookSender({ allowInternalTargets: true });

    const result = await sender.send({ url: `http://[::ffff:127.0.0.1]:${port()}/hook`, envelope: envelope(), secret });

    expect(result).toEqual({ ok: true, status: 200 });
    expect(receiver.requests).toHaveLength(1);
    await sender.close();
  });
});
