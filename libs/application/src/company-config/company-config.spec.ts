import { DEFAULT_COMPANY_SETTINGS } from '@app/domain';
import { TEST_COMPANY, aUseCaseWorld, fieldsOf, type UseCaseWorld, endUseCaseWorlds } from '@app/testing';
import { isInternalHost } from './webhook-target-policy';

afterAll(endUseCaseWorlds);

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
      // Address forms the URL parser rewrites or that embed an IPv4 address.
      ['IPv4-mapped loopback', 'https://[::ffff:127.0.0.1]:8443/hook'],
      ['IPv4-mapped metadata', 'https://[::ffff:a9fe:a9fe]/latest'],
      ['IPv4-compatible loopback', 'https://[::7f00:1]/hook'],
      ['NAT64 loopback', 'https://[64:ff9b::7f00:1]/hook'],
      ['NAT64 local-use prefix', 'https://[64:ff9b:1::a00:1]/hook'],
      ['6to4 private network', 'https://[2002:a00:1::1]/hook'],
      ['Teredo', 'https://[2001::1]/hook'],
      ['IETF protocol assignments', 'https://192.0.0.1/hook'],
      ['IPv6 documentation', 'https://[2001:db8::1]/hook'],
      ['the unspecified address', 'https://0.0.0.0/hook'],
      ['a decimal IPv4 loopback', 'https://2130706433/hook'],
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
    ['[::ffff:7f00:1]', true],
    ['::ffff:a9fe:a9fe', true],
    ['::7f00:1', true],
    ['64:ff9b::7f00:1', true],
    ['64:ff9b::a9fe:a9fe', true],
    ['2002:7f00:1::1', true],
    ['2001::1', true],
    ['192.0.0.1', true],
    ['198.18.0.1', true],
    ['2001:db8::1', true],
    ['::', true],
    ['ff02::1', true],
    ['8.8.8.8', false],
    ['172.32.0.1', false],
    ['hooks.slack.com', false],
    ['2001:4860:4860::8888', false],
    ['::ffff:8.8.8.8', false],
    ['64:ff9b::808:808', false],
    ['2002:808:808::1', false],
    // A name is judged by what it resolves to, when the delivery connects.
    ['localtest.me', false],
  ])('knows whether %s is internal (%s)', (host, internal) => {
    expect(isInternalHost(host)).toBe(internal);
  });
});
