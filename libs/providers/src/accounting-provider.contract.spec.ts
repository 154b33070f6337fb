import {
  createSandbox,
  SANDBOX_FIKEN_CLIENT_ID,
  SANDBOX_FIKEN_CLIENT_SECRET,
  SANDBOX_FIKEN_DEMO_SLUG,
  SANDBOX_TRIPLETEX_CONSUMER_TOKEN,
  SANDBOX_TRIPLETEX_EMPLOYEE_TOKEN,
  type RunningSandbox,
  type Sandbox,
} from '@app/sandbox';
import {
  describeAccountingProviderContract,
  InMemoryProviderTokenStore,
  ManualClock,
  testProviderRegistry,
  testProviderSettings,
} from '@app/testing';
import type { ProviderRegistry } from './provider-registry';

const TODAY = '2026-03-16';
const FAST = { timeoutMs: 2_000, retries: 2, initialBackoffMs: 5, maxBackoffMs: 20, breakerThreshold: 1_000 };

// The shared contract, run against the real adapters (built from their registered definitions) on
// their sandboxes; the test kit's in-memory provider runs it too (libs/testing).
describe('the registered providers on their sandboxes', () => {
  const clock = new ManualClock(new Date(`${TODAY}T10:00:00Z`));
  const tokenStore = new InMemoryProviderTokenStore();
  let sandbox: Sandbox;
  let running: RunningSandbox;
  let registry: ProviderRegistry;

  beforeAll(async () => {
    sandbox = createSandbox({ seed: 7, ledgerEndDate: TODAY, now: () => clock.now(), companies: 1 });
    running = await sandbox.start(0, '127.0.0.1');
    registry = testProviderRegistry({
      clock,
      tokenStore,
      settings: testProviderSettings({
        tripletex: {
          apiUrl: running.tripletexApi,
          config: { consumerToken: SANDBOX_TRIPLETEX_CONSUMER_TOKEN, settleBeforeLookupMs: 10, resilience: FAST },
        },
        fiken: {
          apiUrl: running.fikenApi,
          tokenUrl: `${running.fikenOAuth}/token`,
          config: {
            clientId: SANDBOX_FIKEN_CLIENT_ID,
            clientSecret: SANDBOX_FIKEN_CLIENT_SECRET,
            settleBeforeLookupMs: 10,
            // The pace between request starts is request-turns.spec's and the e2e's subject.
            requestPaceMs: 0,
            resilience: FAST,
          },
        },
      }),
    });
  });

  afterAll(async () => {
    await running.close();
  });

  beforeEach(() => {
    sandbox.control.reset();
    clock.set(`${TODAY}T10:00:00Z`);
  });

  describeAccountingProviderContract('Tripletex', () => {
    const record = {
      companyId: 'demo',
      provider: 'tripletex',
      status: 'connected' as const,
      externalCompanyId: null,
      externalCompanyName: null,
      accessTokenExpiresAt: null,
      reauthorizationReason: null,
      connectedBy: 'admin@demo.no',
      connectedAt: clock.now(),
      updatedAt: clock.now(),
    };
    return {
      provider: registry.adapter('tripletex'),
      connection: registry.connectionOf(record, async () => SANDBOX_TRIPLETEX_EMPLOYEE_TOKEN),
      expenseAccount: '6540',
      paymentAccount: '1920',
      date: TODAY,
      bookingsAtProvider: async () =>
        sandbox.control
          .for('tripletex')
          .bookings(SANDBOX_TRIPLETEX_EMPLOYEE_TOKEN)
          .map((v) => ({ bookingId: String(v.id), hasAttachment: v.attachment !== null })),
    };
  });

  describeAccountingProviderContract('Fiken', async () => {
    const issued = sandbox.control.for('fiken').issueTokens(SANDBOX_FIKEN_DEMO_SLUG);
    await tokenStore.save('demo-fiken', 'fiken', {
      accessToken: issued.access_token,
      refreshToken: issued.refresh_token,
      expiresAt: clock.now().getTime() + issued.expires_in * 1000,
    });
    const record = {
      companyId: 'demo-fiken',
      provider: 'fiken',
      status: 'connected' as const,
      externalCompanyId: SANDBOX_FIKEN_DEMO_SLUG,
      externalCompanyName: null,
      accessTokenExpiresAt: null,
      reauthorizationReason: null,
      connectedBy: 'admin@demo.no',
      connectedAt: clock.now(),
      updatedAt: clock.now(),
    };
    return {
      provider: registry.adapter('fiken'),
      connection: registry.connectionOf(record, () => Promise.reject(new Error('Fiken stores no single token'))),
      expenseAccount: '6540',
      paymentAccount: '1920:10001',
      date: TODAY,
      bookingsAtProvider: async () =>
        sandbox.control
          .for('fiken')
          .bookings(SANDBOX_FIKEN_DEMO_SLUG)
          .map((p) => ({ bookingId: String(p.purchaseId), hasAttachment: p.purchaseAttachments.length > 0 })),
    };
  });
});
