import { randomBytes } from 'node:crypto';
import type { NewProviderConnection, ProviderConnectionRecord } from '@app/domain';
import {
  AuthorizationStateSigner,
  CompanyContextService,
  CompleteConnection,
  ProviderConnections,
  ProviderEndpoints,
  StartConnection,
} from '@app/application';
import { PROVIDERS, ProviderRegistry, RoutingAccountingProvider } from '@app/providers';
import { describeAccountingProviderContract } from '../../contracts/accounting-provider.contract';
import { InMemoryAuthorizationRequestStore } from '../../in-memory/in-memory-authorization-request-store';
import { InMemoryCompanyContextStore } from '../../in-memory/in-memory-company-context-store';
import { InMemoryProviderConnectionRepository } from '../../in-memory/in-memory-provider-connection-repository';
import { InMemoryProviderTokenStore } from '../../in-memory/in-memory-provider-token-store';
import { receiptPdf } from '../../mothers/receipt-pdf.mother';
import { aBooking } from '../../mothers/booking.mother';
import { ManualClock } from '../../time/manual-clock';
import { testProviderSettings } from '../test-provider-registry';
import { KassebokLedger } from './kassebok-ledger';
import { kassebok } from './kassebok.definition';

const AUTHORIZE_URL = 'https://kassebok.test/oauth/authorize';

/**
 * Kassebok is registered here the way the app registers Tripletex and Fiken: its folder and one
 * line (`[...PROVIDERS, kassebok]`). Nothing else in the tree names it, and yet it passes the shared
 * AccountingProvider contract and the onboarding use cases, start to connected.
 */
function registerKassebok(ledger: KassebokLedger, clock: ManualClock, tokenStore: InMemoryProviderTokenStore) {
  return new ProviderRegistry(
    [...PROVIDERS, kassebok],
    { ...testProviderSettings(), kassebok: { ledger, authorizeUrl: AUTHORIZE_URL } },
    { clock, tokenStore },
  );
}

/** The in-memory connections, keeping an OAuth grant's tokens where the adapters read them (as the database's one row does). */
class ConnectionsWithTokens extends InMemoryProviderConnectionRepository {
  constructor(
    clock: ManualClock,
    private readonly tokens: InMemoryProviderTokenStore,
  ) {
    super(clock);
  }

  override async connect(connection: NewProviderConnection): Promise<ProviderConnectionRecord> {
    const record = await super.connect(connection);
    const { provider, secret } = connection.grant;
    if (secret.kind === 'oauth') await this.tokens.save(connection.companyId, provider, secret.tokens);
    return record;
  }
}

describeAccountingProviderContract('Kassebok (a test-only provider, registered by one line)', async () => {
  const clock = new ManualClock();
  const tokenStore = new InMemoryProviderTokenStore();
  const ledger = new KassebokLedger();
  const registry = registerKassebok(ledger, clock, tokenStore);
  const redirectUri = 'https://accounting.test/v1/oauth/kassebok/callback';
  const code = ledger.consent('acme', redirectUri, 'state');
  const redeemed = await registry.grantExchange().redeem('kassebok', { code, redirectUri, state: 'state' });
  if (redeemed.secret.kind !== 'oauth') throw new Error('Kassebok grants OAuth tokens');
  await tokenStore.save('company-1', 'kassebok', redeemed.secret.tokens);
  const record: ProviderConnectionRecord = {
    companyId: 'company-1',
    provider: 'kassebok',
    status: 'connected',
    externalCompanyId: 'acme',
    externalCompanyName: 'Acme AS',
    accessTokenExpiresAt: new Date(redeemed.secret.tokens.expiresAt),
    reauthorizationReason: null,
    connectedBy: 'admin@acme.no',
    connectedAt: clock.now(),
    updatedAt: clock.now(),
  };
  return {
    provider: new RoutingAccountingProvider(registry),
    connection: registry.connectionOf(record, () => Promise.reject(new Error('Kassebok stores no single token'))),
    expenseAccount: '6540',
    paymentAccount: '1920',
    date: '2026-03-16',
    bookingsAtProvider: async () =>
      ledger.bookings('acme').map((e) => ({ bookingId: e.id, hasAttachment: e.attachment !== null })),
  };
});

describe('onboarding a test-only provider registered by one line', () => {
  const admin = { actor: 'kari@acme.no', company: 'company-1', channel: 'web' as const, role: 'admin' as const };
  let clock: ManualClock;
  let ledger: KassebokLedger;
  let registry: ProviderRegistry;
  let connections: ConnectionsWithTokens;
  let resolver: ProviderConnections;
  let start: StartConnection;
  let complete: CompleteConnection;

  beforeEach(() => {
    clock = new ManualClock();
    ledger = new KassebokLedger();
    const tokenStore = new InMemoryProviderTokenStore();
    registry = registerKassebok(ledger, clock, tokenStore);
    connections = new ConnectionsWithTokens(clock, tokenStore);
    resolver = new ProviderConnections(connections, registry);
    const requests = new InMemoryAuthorizationRequestStore();
    const signer = new AuthorizationStateSigner(randomBytes(32));
    const endpoints = new ProviderEndpoints('https://accounting.test');
    const provider = new RoutingAccountingProvider(registry);
    start = new StartConnection(requests, signer, endpoints, registry, clock);
    complete = new CompleteConnection(
      requests,
      signer,
      registry.grantExchange(),
      connections,
      new CompanyContextService(new InMemoryCompanyContextStore(), resolver, provider, clock),
      endpoints,
      clock,
    );
  });

  it('starts at its consent screen, completes with the code, and books through the connection', async () => {
    const { authorizeUrl, browserSecret } = await start.execute(admin, 'kassebok');
    const started = new URL(authorizeUrl);
    expect(`${started.origin}${started.pathname}`).toBe(AUTHORIZE_URL);
    const redirectUri = started.searchParams.get('redirect_uri')!;
    const state = started.searchParams.get('state')!;
    expect(redirectUri).toBe('https://accounting.test/v1/oauth/kassebok/callback');

    // The admin's browser comes back with the binding cookie it was given at the start.
    const code = ledger.consent('acme', redirectUri, state);
    const outcome = await complete.execute({ provider: 'kassebok', state, code, browserSecret });

    expect(outcome).toMatchObject({
      kind: 'connected',
      provider: 'kassebok',
      externalCompanyId: 'acme',
      externalCompanyName: 'Acme AS',
      context: { accounts: 4, vatTypes: 4 },
    });
    const { connection } = await resolver.require('company-1', 'kassebok');
    const booked = await new RoutingAccountingProvider(registry).bookExpense(
      connection,
      aBooking({
        reference: 'proposal-1',
        date: '2026-03-16',
        description: 'Toner',
        merchant: 'Clas Ohlson',
        accountCode: '6800',
        vatRate: '25',
        grossAmount: 49_900,
        currency: 'NOK',
        amountNok: null,
        paymentAccount: '1920',
        receipt: { filename: 'r.pdf', contentType: 'application/pdf', bytes: receiptPdf() },
      }),
    );
    expect(ledger.bookings('acme')).toEqual([
      expect.objectContaining({ id: booked.bookingId, reference: 'proposal-1', amount: 49_900, attachment: 'r.pdf' }),
    ]);
  });

  it('stores nothing when Kassebok refuses the code', async () => {
    const { authorizeUrl, browserSecret } = await start.execute(admin, 'kassebok');
    const state = new URL(authorizeUrl).searchParams.get('state')!;

    const outcome = await complete.execute({ provider: 'kassebok', state, code: 'forged-code', browserSecret });

    expect(outcome).toMatchObject({ kind: 'grant_refused', provider: 'kassebok' });
    expect(await connections.find('company-1')).toBeNull();
  });

  it('is listed by the catalog after the real providers, with its name and onboarding kind', () => {
    expect(registry.kinds()).toEqual(['tripletex', 'fiken', 'kassebok']);
    expect(registry.displayName('kassebok')).toBe('Kassebok');
    expect(registry.onboarding('kassebok')).toBe('oauth');
  });
});
