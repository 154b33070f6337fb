import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  createSandbox,
  SANDBOX_FIKEN_CLIENT_ID,
  SANDBOX_FIKEN_CLIENT_SECRET,
  SANDBOX_TRIPLETEX_CONSUMER_TOKEN,
  type RunningSandbox,
  type Sandbox,
} from '@app/sandbox';
import type { ProviderGrantExchange } from '@app/domain';
import {
  describeProviderGrantExchangeContract,
  ManualClock,
  testProviderRegistry,
  testProviderSettings,
} from '@app/testing';

describe('the registered grant exchange with Fiken', () => {
  let server: Server;
  let base: string;
  const seen: { url: string; authorization?: string; body: string }[] = [];
  const companies = Array.from({ length: 130 }, (_, i) => ({ slug: `firma-${i}`, name: `Firma ${i}` }));

  beforeAll(async () => {
    server = createServer((req: IncomingMessage, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      req.on('end', () => {
        seen.push({ url: req.url ?? '', authorization: req.headers.authorization, body });
        res.setHeader('content-type', 'application/json');
        if (req.url === '/oauth/token') {
          res.end(JSON.stringify({ access_token: 'a', refresh_token: 'r', token_type: 'bearer', expires_in: 3600 }));
          return;
        }
        const url = new URL(req.url ?? '/', 'http://x');
        const page = Number(url.searchParams.get('page'));
        const size = Number(url.searchParams.get('pageSize'));
        res.setHeader('Fiken-Api-Page-Count', String(Math.ceil(companies.length / size)));
        res.end(JSON.stringify(companies.slice(page * size, (page + 1) * size)));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  it('sends the state and the client credentials as they are, and pages through the companies', async () => {
    const exchange = testProviderRegistry({
      settings: testProviderSettings({
        fiken: {
          apiUrl: `${base}/api`,
          authorizeUrl: `${base}/oauth/authorize`,
          tokenUrl: `${base}/oauth/token`,
          config: { clientId: 'app', clientSecret: 's3cr+t/=' },
        },
      }),
    }).grantExchange();
    const redeemed = await exchange.redeem('fiken', {
      code: 'the-code',
      redirectUri: 'https://accounting.example/cb',
      state: 'signed-state',
    });
    expect(redeemed.companies).toHaveLength(130);
    const token = seen.find((s) => s.url === '/oauth/token');
    expect(Object.fromEntries(new URLSearchParams(token?.body))).toEqual({
      grant_type: 'authorization_code',
      code: 'the-code',
      redirect_uri: 'https://accounting.example/cb',
      state: 'signed-state',
    });
    expect(token?.authorization).toBe(`Basic ${Buffer.from('app:s3cr+t/=').toString('base64')}`);
    expect(seen.filter((s) => s.url.startsWith('/api/companies')).map((s) => s.url)).toEqual([
      '/api/companies?page=0&pageSize=100',
      '/api/companies?page=1&pageSize=100',
    ]);
  });
});

describe('the registered grant exchange against the sandboxes', () => {
  const clock = new ManualClock();
  let sandbox: Sandbox;
  let running: RunningSandbox;

  beforeAll(async () => {
    sandbox = createSandbox({ seed: 11, companies: 3, now: () => clock.now() });
    running = await sandbox.start(0, '127.0.0.1');
  });

  afterAll(async () => {
    await running.close();
  });

  /** Submits the sandbox's Fiken consent form, approving `slug`, and returns the redirect's code. */
  async function approveAtFiken(slug: string, redirectUri: string, state: string): Promise<string> {
    const form = new URLSearchParams({
      client_id: SANDBOX_FIKEN_CLIENT_ID,
      redirect_uri: redirectUri,
      state,
      company: slug,
      decision: 'approve',
    });
    const response = await fetch(`${running.fikenOAuth}/authorize`, { method: 'POST', body: form, redirect: 'manual' });
    const code = new URL(response.headers.get('location') ?? '', redirectUri).searchParams.get('code');
    if (response.status !== 302 || !code)
      throw new Error(`the consent form answered ${response.status} without a code`);
    return code;
  }

  function sandboxExchange(): ProviderGrantExchange {
    return testProviderRegistry({
      clock,
      settings: testProviderSettings({
        tripletex: {
          apiUrl: running.tripletexApi,
          config: { consumerToken: SANDBOX_TRIPLETEX_CONSUMER_TOKEN },
          timeoutMs: 5_000,
        },
        fiken: {
          apiUrl: running.fikenApi,
          authorizeUrl: `${running.fikenOAuth}/authorize`,
          tokenUrl: `${running.fikenOAuth}/token`,
          config: { clientId: SANDBOX_FIKEN_CLIENT_ID, clientSecret: SANDBOX_FIKEN_CLIENT_SECRET },
          timeoutMs: 5_000,
        },
      }),
    }).grantExchange();
  }

  it("opens a Tripletex session in Oslo's first hour, when the UTC date is still the day before", async () => {
    sandbox.control.reset();
    clock.set('2026-11-25T23:30:00.000Z');
    const company = sandbox.control.for('tripletex').company(0);
    const redeemed = await sandboxExchange().redeem('tripletex', {
      code: company.employeeToken,
      redirectUri: 'https://accounting.example/v1/oauth/tripletex/callback',
      state: 'signed-state',
    });
    expect(redeemed.companies[0]).toMatchObject({ id: String(company.companyId) });
  });

  it('refuses a Tripletex employee token without the Advanced Voucher right, naming the right', async () => {
    sandbox.control.reset();
    clock.set('2026-11-28T10:00:00.000Z');
    const company = sandbox.control.for('tripletex').company(1);
    sandbox.control.for('tripletex').withholdEntitlement(1, 'AUTH_ADVANCED_VOUCHER');
    const proof = {
      code: company.employeeToken,
      redirectUri: 'https://accounting.example/v1/oauth/tripletex/callback',
      state: 'signed-state',
    };
    const error = await sandboxExchange()
      .redeem('tripletex', proof)
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'provider_error', transient: false });
    expect((error as Error).message).toContain('lacks the right "Advanced Voucher"');
    expect((error as Error).message).toContain('sendToLedger');
    expect((error as Error).message).not.toContain(company.employeeToken);

    sandbox.control.reset();
    await expect(sandboxExchange().redeem('tripletex', proof)).resolves.toMatchObject({
      companies: [{ id: String(company.companyId) }],
    });
  });

  describeProviderGrantExchangeContract('the Tripletex and Fiken grant exchanges', () => {
    sandbox.control.reset();
    const exchange = sandboxExchange();
    return {
      exchange,
      now: () => clock.now(),
      consentFiken: async (index, redirectUri, state) => {
        const { slug, name } = sandbox.control.for('fiken').company(index);
        return { code: await approveAtFiken(slug, redirectUri, state), company: { id: slug, name } };
      },
      tripletexEmployee: (index) => {
        const company = sandbox.control.for('tripletex').company(index);
        return { employeeToken: company.employeeToken, company: { id: String(company.companyId), name: null } };
      },
      outage: (provider) => {
        sandbox.control.addFault({ provider, errorRate: 1, errorStatus: 503 });
      },
      restore: () => sandbox.control.clearFaults(),
    };
  });
});
