import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { FikenSettings, TripletexSettings } from '@app/providers';
import { loadConfig } from '../config/app-config';
import { SandboxRuntime } from '../sandbox/sandbox-runtime';
import { providerSettings } from './provider-settings';

describe("providerSettings (each provider's settings, built by its definition)", () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'provider-settings-'));
  afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

  it('reads the configured credentials and addresses', async () => {
    const config = loadConfig({
      DATA_DIR: dataDir,
      TRIPLETEX_CONSUMER_TOKEN: 'consumer',
      TRIPLETEX_BASE_URL: 'https://tripletex.example/v2/',
      FIKEN_CLIENT_ID: 'client',
      FIKEN_CLIENT_SECRET: 'secret',
      FIKEN_OAUTH_URL: 'https://fiken.example/oauth',
      FIKEN_MAX_CONCURRENT_REQUESTS: '3',
      FIKEN_REQUEST_PACE_MS: '40',
      PROVIDER_TIMEOUT_MS: '4000',
      PROVIDER_RETRIES: '1',
    });
    const sandbox = await SandboxRuntime.start(config);
    expect(sandbox.running).toBeNull();

    const settings = providerSettings(config, sandbox) as { tripletex: TripletexSettings; fiken: FikenSettings };

    expect(settings.tripletex).toEqual({
      apiUrl: 'https://tripletex.example/v2',
      consentUrl: null,
      config: { consumerToken: 'consumer', resilience: { timeoutMs: 4000, retries: 1 } },
      timeoutMs: 4000,
    });
    expect(settings.fiken).toMatchObject({
      apiUrl: 'https://api.fiken.no/api/v2',
      authorizeUrl: 'https://fiken.example/oauth/authorize',
      tokenUrl: 'https://fiken.example/oauth/token',
      config: { clientId: 'client', clientSecret: 'secret', maxConcurrentRequests: 3, requestPaceMs: 40 },
    });
  });

  it('names every missing credential at once', async () => {
    const config = loadConfig({ DATA_DIR: dataDir, PROVIDER_SANDBOX: 'false' });
    const sandbox = await SandboxRuntime.start(config);
    expect(() => providerSettings(config, sandbox)).toThrow(
      'TRIPLETEX_CONSUMER_TOKEN and FIKEN_CLIENT_ID and FIKEN_CLIENT_SECRET must be configured when PROVIDER_SANDBOX is off',
    );
  });

  it("points every provider at the in-process sandbox, with the sandbox's credentials, in sandbox mode", async () => {
    const config = loadConfig({
      DATA_DIR: dataDir,
      FIKEN_MAX_CONCURRENT_REQUESTS: '2',
      TRIPLETEX_BASE_URL: 'https://x.example',
    });
    const sandbox = await SandboxRuntime.start(config, 'cli');
    try {
      const url = sandbox.running!.url;
      const settings = providerSettings(config, sandbox) as { tripletex: TripletexSettings; fiken: FikenSettings };
      expect(settings.tripletex).toMatchObject({
        apiUrl: `${url}/tripletex/v2`,
        consentUrl: `${url}/tripletex/consent`,
      });
      expect(settings.fiken).toMatchObject({
        apiUrl: `${url}/fiken/api/v2`,
        tokenUrl: `${url}/fiken/oauth/token`,
        // What the sandbox does not set stays the configured value.
        config: { maxConcurrentRequests: 2 },
      });
      // The sandbox's credentials open it.
      const session = await fetch(
        `${settings.tripletex.apiUrl}/token/session/:create?consumerToken=${settings.tripletex.config.consumerToken}&employeeToken=sandbox-tripletex-employee-token-0&expirationDate=2099-01-01`,
        { method: 'PUT' },
      );
      expect(session.status).toBe(200);
    } finally {
      await sandbox.onApplicationShutdown();
    }
  });
});
