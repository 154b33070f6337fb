import { DEFAULT_COMPANY_SETTINGS } from '@app/domain';
import { TEST_COMPANY } from '@app/testing';
import { aUseCaseWorld, fieldsOf, type UseCaseWorld } from '../testing/use-case-world';
import { isInternalHost } from './webhook-target-policy';

describe('company settings', () => {
  let world: UseCaseWorld;
  const admin = { actor: 'admin@example.no', company: TEST_COMPANY, channel: 'web' as const, role: 'admin' as const };
  const slack = { kind: 'slack' as const, url: 'https://hooks.slack.com/services/T0/B0/xyz' };

  beforeEach(() => {
    world = aUseCaseWorld();
  });

  it('are the defaults until an admin saves some', async () => {
    expect(await world.getCompanySettings.execute(admin)).toEqual(DEFAULT_COMPANY_SETTINGS);
  });

  it('change only the keys given; null clears a channel', async () => {
    await world.updateCompanySettings.execute({
      caller: admin,
      changes: { reviewChannel: slack, invoicesChannel: slack },
    });

    const next = await world.updateCompanySettings.execute({
      caller: admin,
      changes: { executionDelayMinutes: 0, invoicesChannel: null },
    });

    expect(next).toEqual({ ...DEFAULT_COMPANY_SETTINGS, reviewChannel: slack, executionDelayMinutes: 0 });
    expect(await world.getCompanySettings.execute(admin)).toEqual(next);
  });

  it('report every bad key at once and change nothing', async () => {
    const changes = { reviewChannel: { kind: 'teams', url: 'x' }, executionDelayMinutes: -1, paymentAccount: '19' };

    expect(await fieldsOf(world.updateCompanySettings.execute({ caller: admin, changes }))).toEqual([
      'reviewChannel.kind',
      'executionDelayMinutes',
      'paymentAccount',
    ]);
    expect(await world.getCompanySettings.execute(admin)).toEqual(DEFAULT_COMPANY_SETTINGS);
  });

  describe('in production', () => {
    it.each([
      ['plain http', 'http://gateway.example.com/hook'],
      ['loopback', 'https://127.0.0.1/hook'],
      ['a private network', 'https://10.1.2.3/hook'],
      ['link-local metadata', 'https://169.254.169.254/latest'],
      ['IPv6 loopback', 'https://[::1]/hook'],
      ['localhost', 'https://localhost:8443/hook'],
      ['credentials in the URL', 'https://user:secret@gateway.example.com/hook'],
    ])('refuse a notification target on %s', async (_label, url) => {
      expect(
        await fieldsOf(
          world.updateCompanySettings.execute({
            caller: admin,
            changes: { gatewayCallback: { kind: 'webhook', url } },
          }),
        ),
      ).toEqual(['gatewayCallback.url']);
    });

    it('accept a public https target', async () => {
      const target = { kind: 'webhook' as const, url: 'https://gateway.example.com/hooks/accounting' };

      expect(
        (await world.updateCompanySettings.execute({ caller: admin, changes: { gatewayCallback: target } }))
          .gatewayCallback,
      ).toEqual(target);
    });
  });

  it('allow a local http receiver outside production', async () => {
    world = aUseCaseWorld({ strictWebhookTargets: false });
    const target = { kind: 'webhook' as const, url: 'http://127.0.0.1:4010/hook' };

    expect(
      (await world.updateCompanySettings.execute({ caller: admin, changes: { gatewayCallback: target } }))
        .gatewayCallback,
    ).toEqual(target);
  });

  it.each([
    ['192.168.1.1', true],
    ['172.20.0.5', true],
    ['100.64.0.1', true],
    ['::ffff:127.0.0.1', true],
    ['fd00::1', true],
    ['fe80::1', true],
    ['metadata.internal', true],
    ['printer.local', true],
    ['8.8.8.8', false],
    ['172.32.0.1', false],
    ['hooks.slack.com', false],
    ['2001:4860:4860::8888', false],
  ])('knows whether %s is internal (%s)', (host, internal) => {
    expect(isInternalHost(host)).toBe(internal);
  });
});
