import { randomBytes } from 'node:crypto';
import {
  AccountingProvider,
  ProviderConnectionRepository,
  ProviderError,
  ProviderGrantExchange,
  type NewProviderConnection,
  type ProviderConnectionRecord,
} from '@app/domain';
import {
  InMemoryAuthorizationRequestStore,
  InMemoryCompanyContextStore,
  ManualClock,
  testProviderRegistry,
  testProviderSettings,
} from '@app/testing';
import { CompanyContextService } from '../context/company-context.service';
import { AuthorizationStateSigner } from './authorization-state';
import { CompleteConnection } from './complete-connection.handler';
import { ProviderConnections } from './provider-connections';
import { ProviderEndpoints } from './provider-endpoints';
import { StartConnection } from './start-connection.handler';

class Connections extends ProviderConnectionRepository {
  readonly stored: NewProviderConnection[] = [];
  async find(): Promise<ProviderConnectionRecord | null> {
    return null;
  }
  async connect(connection: NewProviderConnection): Promise<ProviderConnectionRecord> {
    this.stored.push(connection);
    const now = new Date();
    return {
      companyId: connection.companyId,
      provider: connection.grant.provider,
      status: 'connected',
      externalCompanyId: connection.externalCompanyId,
      externalCompanyName: connection.externalCompanyName,
      accessTokenExpiresAt: null,
      reauthorizationReason: null,
      connectedBy: connection.connectedBy,
      connectedAt: now,
      updatedAt: now,
    };
  }
  async storedToken(): Promise<string> {
    return 'employee-token';
  }
  async markNeedsReauthorization(): Promise<void> {}
}

describe('CompleteConnection', () => {
  const endpoints = new ProviderEndpoints('https://accounting.example');
  let clock: ManualClock;
  let requests: InMemoryAuthorizationRequestStore;
  let connections: Connections;
  let contexts: InMemoryCompanyContextStore;
  let exchange: jest.Mocked<ProviderGrantExchange>;
  let fetchContext: jest.Mock;
  let start: StartConnection;
  let complete: CompleteConnection;
  let signer: AuthorizationStateSigner;
  const admin = { actor: 'kari@acme.no', company: 'acme', channel: 'web' as const, role: 'admin' as const };

  beforeEach(() => {
    clock = new ManualClock();
    requests = new InMemoryAuthorizationRequestStore();
    connections = new Connections();
    contexts = new InMemoryCompanyContextStore();
    exchange = {
      redeem: jest.fn(async (provider: string, proof: { code: string }) =>
        provider === 'fiken'
          ? {
              secret: { kind: 'oauth', tokens: { accessToken: 'a', refreshToken: 'r', expiresAt: 1 } },
              companies: [{ id: 'acme-as', name: 'Acme AS' }],
            }
          : { secret: { kind: 'token', token: proof.code }, companies: [{ id: '1001', name: null }] },
      ),
    } as unknown as jest.Mocked<ProviderGrantExchange>;
    fetchContext = jest.fn(async () => ({
      accounts: [{ code: '6540', name: 'Inventar' }],
      departments: [],
      vatTypes: [],
      employees: [],
    }));
    const provider = { fetchContext } as unknown as AccountingProvider;
    signer = new AuthorizationStateSigner(randomBytes(32));
    const catalog = testProviderRegistry({
      settings: testProviderSettings({
        fiken: { authorizeUrl: 'https://fiken.example/oauth/authorize' },
      }),
    });
    const resolver = new ProviderConnections(connections, catalog);
    start = new StartConnection(requests, signer, endpoints, catalog, clock);
    complete = new CompleteConnection(
      requests,
      signer,
      exchange,
      connections,
      new CompanyContextService(contexts, resolver, provider, clock),
      endpoints,
      clock,
    );
  });

  const stateOf = (authorizeUrl: string) => new URL(authorizeUrl).searchParams.get('state')!;
  /** Starts a connection; returns its state and the binding cookie of the browser it was started in. */
  const begin = async (provider: 'fiken' | 'tripletex') => {
    const started = await start.execute(admin, provider);
    return { state: stateOf(started.authorizeUrl), browserSecret: started.browserSecret };
  };

  it('builds the Fiken authorize URL with client id, redirect URI and state', async () => {
    const url = new URL((await start.execute(admin, 'fiken')).authorizeUrl);
    expect(`${url.origin}${url.pathname}`).toBe('https://fiken.example/oauth/authorize');
    expect(url.searchParams.get('response_type')).toBe('code');
    expect(url.searchParams.get('client_id')).toBe('client');
    expect(url.searchParams.get('redirect_uri')).toBe('https://accounting.example/v1/oauth/fiken/callback');
  });

  it("sends Tripletex admins to the service's token form when there is no consent page", async () => {
    const url = new URL((await start.execute(admin, 'tripletex')).authorizeUrl);
    expect(`${url.origin}${url.pathname}`).toBe('https://accounting.example/v1/oauth/tripletex/token-form');
  });

  it('exchanges the Fiken code, stores the grant for the admin and fetches the context', async () => {
    const state = await begin('fiken');
    const outcome = await complete.execute({ provider: 'fiken', ...state, code: 'the-code' });
    expect(outcome).toMatchObject({
      kind: 'connected',
      companyId: 'acme',
      externalCompanyId: 'acme-as',
      context: { accounts: 1 },
    });
    expect(exchange.redeem).toHaveBeenCalledWith('fiken', {
      code: 'the-code',
      redirectUri: 'https://accounting.example/v1/oauth/fiken/callback',
      state: state.state,
    });
    expect(connections.stored[0]).toMatchObject({
      companyId: 'acme',
      connectedBy: 'kari@acme.no',
      grant: { provider: 'fiken' },
    });
    expect(await contexts.get('acme')).toMatchObject({
      companyId: 'acme',
      provider: 'fiken',
      accounts: [{ code: '6540', name: 'Inventar' }],
    });
    expect(JSON.stringify(outcome)).not.toContain('"a"');
  });

  it('consumes the state once', async () => {
    const state = await begin('tripletex');
    expect((await complete.execute({ provider: 'tripletex', ...state, code: 'tok' })).kind).toBe('connected');
    expect(await complete.execute({ provider: 'tripletex', ...state, code: 'tok' })).toEqual({
      kind: 'invalid_state',
      rejection: 'replayed',
    });
  });

  it('refuses an expired state and a state for the other provider', async () => {
    const state = await begin('tripletex');
    expect(await complete.execute({ provider: 'fiken', ...state, code: 'x' })).toEqual({
      kind: 'invalid_state',
      rejection: 'forged',
    });
    clock.advance({ minutes: 10 });
    expect(await complete.execute({ provider: 'tripletex', ...state, code: 'x' })).toEqual({
      kind: 'invalid_state',
      rejection: 'expired',
    });
    expect(connections.stored).toEqual([]);
  });

  it('stores nothing when consent is refused or the provider refuses the code', async () => {
    const refused = await begin('fiken');
    expect((await complete.execute({ provider: 'fiken', ...refused, error: 'access_denied' })).kind).toBe(
      'consent_refused',
    );
    exchange.redeem.mockRejectedValueOnce(new ProviderError('fiken', 'rejected', 'invalid_grant'));
    const badCode = await begin('fiken');
    expect((await complete.execute({ provider: 'fiken', ...badCode, code: 'bad' })).kind).toBe('grant_refused');
    exchange.redeem.mockRejectedValueOnce(new ProviderError('tripletex', 'timeout', 'slow'));
    const slow = await begin('tripletex');
    expect((await complete.execute({ provider: 'tripletex', ...slow, code: 'tok' })).kind).toBe('provider_failed');
    expect(connections.stored).toEqual([]);
  });

  it('keeps the connection when only the context pre-fetch fails', async () => {
    fetchContext.mockRejectedValueOnce(new ProviderError('tripletex', 'unavailable', 'down'));
    const state = await begin('tripletex');
    expect(await complete.execute({ provider: 'tripletex', ...state, code: 'tok' })).toMatchObject({
      kind: 'connected',
      context: null,
      contextError: 'down',
    });
    expect(connections.stored).toHaveLength(1);
  });

  it('refuses a state in a browser without its binding cookie, without using it up', async () => {
    const started = await begin('tripletex');
    for (const browserSecret of [undefined, 'another-browsers-cookie']) {
      expect(
        await complete.execute({ provider: 'tripletex', state: started.state, browserSecret, code: 'tok' }),
      ).toEqual({ kind: 'invalid_state', rejection: 'other_browser' });
      expect(await complete.isPending('tripletex', started.state, browserSecret)).toBe(false);
    }
    expect(await complete.isPending('tripletex', started.state, started.browserSecret)).toBe(true);
    expect((await complete.execute({ provider: 'tripletex', ...started, code: 'tok' })).kind).toBe('connected');
  });

  it('refuses a validly signed state that is bound to no browser, and stores nothing', async () => {
    // What the API's connect route used to hand out: a consent link anyone could finish.
    const nonce = 'unbound-nonce';
    const expiresAt = new Date(clock.now().getTime() + 60_000);
    await requests.issue(
      { nonce, companyId: 'acme', provider: 'fiken', actor: 'kari@acme.no', expiresAt },
      clock.now(),
    );
    const state = signer.sign({ nonce, companyId: 'acme', provider: 'fiken', expiresAt: expiresAt.getTime() });

    expect(await complete.execute({ provider: 'fiken', state, code: 'the-code' })).toEqual({
      kind: 'invalid_state',
      rejection: 'unbound',
    });
    expect(await complete.execute({ provider: 'fiken', state, browserSecret: 'any', code: 'the-code' })).toEqual({
      kind: 'invalid_state',
      rejection: 'unbound',
    });
    expect(await complete.isPending('fiken', state, undefined)).toBe(false);
    expect(exchange.redeem).not.toHaveBeenCalled();
    expect(connections.stored).toEqual([]);
  });
});
