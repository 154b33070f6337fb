import { Module, type Type } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { Clock, IdGenerator, Notifier } from '@app/domain';
import { InMemoryCompanyChannelDirectory } from '@app/testing';
import { WebhookSecret, verifyWebhookSignature } from './delivery/webhook-secret';
import { OutboxDispatcher } from './dispatch/outbox-dispatcher';
import { notification } from './message/notification';
import { InMemoryOutboxRepository } from '@app/testing';
import { OutboxNotifier } from './outbox/outbox-notifier';
import { NotificationsModule } from './notifications.module';
import { CompanyChannelDirectory } from './ports/company-channel-directory.port';
import { OutboxRepository } from './ports/outbox.repository.port';
import { ManualTimeSource as ManualClock } from '@app/testing';
import { aRejectedPayload, anAutoApprovedPayload } from '@app/testing';
import { TestWebhookReceiver } from '@app/testing';

describe('NotificationsModule', () => {
  let receiver: TestWebhookReceiver;
  const secret = WebhookSecret.from('module-test-secret');

  beforeEach(async () => {
    receiver = await TestWebhookReceiver.start();
  });

  afterEach(async () => {
    await receiver.close();
  });

  function adapters(): Type {
    let id = 0;
    const channels = new InMemoryCompanyChannelDirectory().set('acme', {
      gatewayCallback: { kind: 'webhook', url: receiver.url('/gateway') },
      webhookSecret: secret,
    });
    @Module({
      providers: [
        { provide: OutboxRepository, useValue: new InMemoryOutboxRepository() },
        { provide: CompanyChannelDirectory, useValue: channels },
        { provide: Clock, useValue: new ManualClock() },
        { provide: IdGenerator, useValue: { next: () => `id-${++id}` } },
      ],
      exports: [OutboxRepository, CompanyChannelDirectory, Clock, IdGenerator],
    })
    class TestAdaptersModule {}
    return TestAdaptersModule;
  }

  it('wires the notifier and the dispatcher to the chosen adapters', async () => {
    const moduleRef = await Test.createTestingModule({
      imports: [NotificationsModule.register({ imports: [adapters()], autoStart: false, allowInternalTargets: true })],
    }).compile();
    const app = moduleRef.createNestApplication({ logger: false });
    await app.init();

    const ids = await app
      .get(OutboxNotifier)
      .notify([notification('acme', 'proposal_auto_approved', anAutoApprovedPayload({ confidence: 0.93 }))]);
    expect(app.get(Notifier)).toBe(app.get(OutboxNotifier));
    expect(app.get(OutboxDispatcher).isRunning).toBe(false);
    const summary = await app.get(OutboxDispatcher).runOnce();

    expect(ids).toEqual(['id-1']);
    expect(summary).toMatchObject({ claimed: 1, delivered: 1 });
    const [request] = receiver.requests;
    expect(request.headers['x-delivery-id']).toBe('id-1');
    expect(verifyWebhookSignature(request.rawBody, request.headers['x-signature'] as string, secret)).toBe(true);
    expect(receiver.json<{ text: string }>(request).text).toContain('Auto-approved with 93 % confidence');
    await app.close();
  });

  it('runs the dispatcher while the application runs', async () => {
    const moduleRef = await Test.createTestingModule({
      imports: [
        NotificationsModule.register({
          imports: [adapters()],
          dispatcher: { pollIntervalMs: 10 },
          allowInternalTargets: true,
        }),
      ],
    }).compile();
    const app = moduleRef.createNestApplication({ logger: false });
    await app.init();
    const dispatcher = app.get(OutboxDispatcher);

    expect(dispatcher.isRunning).toBe(true);
    await app
      .get(OutboxNotifier)
      .notify([notification('acme', 'proposal_rejected', aRejectedPayload({ reason: 'duplicate receipt' }))]);
    const deadline = Date.now() + 3_000;
    while (receiver.accepted().length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
    expect(receiver.json<{ type: string }>(receiver.accepted()[0]).type).toBe('proposal_rejected');

    await app.close();
    expect(dispatcher.isRunning).toBe(false);
  });
});
