import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { loadConfig } from '../config/app-config';
import { SandboxRuntime } from './sandbox-runtime';

describe('the in-process sandboxes', () => {
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'sandbox-runtime-'));
  const jwks = path.join(directory, 'jwks.json');
  const keyring = path.join(directory, 'keyring.json');
  fs.writeFileSync(jwks, '{"keys":[]}');
  fs.writeFileSync(keyring, '{}', { mode: 0o600 });
  let runtime: SandboxRuntime | undefined;

  afterEach(async () => runtime?.onApplicationShutdown());
  afterAll(() => fs.rmSync(directory, { recursive: true, force: true }));

  const statusOf = async (url: string, init?: RequestInit): Promise<number> => (await fetch(url, init)).status;

  it('serve their control API and credentials over HTTP in development', async () => {
    runtime = await SandboxRuntime.start(loadConfig({ DATA_DIR: directory }));
    const running = runtime.running!;
    expect(await statusOf(`${running.control}/faults`)).toBe(200);
    expect(await (await fetch(`${running.url}/`)).json()).toHaveProperty('credentials');
  });

  it('are the running service’s for a CLI command beside it, and the command’s own when no service runs', async () => {
    const config = loadConfig({ DATA_DIR: directory });
    const alone = await SandboxRuntime.start(config, 'cli');
    const aloneUrl = alone.running!.url;
    await alone.onApplicationShutdown();
    runtime = await SandboxRuntime.start(config);

    const beside = await SandboxRuntime.start(config, 'cli');

    expect(beside.running!.url).toBe(runtime.running!.url);
    expect(beside.control).toBeNull();
    await beside.onApplicationShutdown(); // leaves the service's sandbox running
    expect(await statusOf(`${runtime.running!.control}/faults`)).toBe(200);
    expect(aloneUrl).not.toBe(runtime.running!.url);
    await runtime.onApplicationShutdown();
    runtime = undefined;
    expect(fs.existsSync(path.join(directory, 'sandbox.json'))).toBe(false);
  });

  it('serve no control API, no reset, no faults and no credentials from a production instance', async () => {
    runtime = await SandboxRuntime.start(
      loadConfig({
        NODE_ENV: 'production',
        DATABASE_URL: 'postgres://app@127.0.0.1/db',
        GATEWAY_JWKS: jwks,
        GATEWAY_AUDIENCE: 'accounting-api',
        KEK_SOURCE: `local:${keyring}`,
        STATE_SECRET: 's'.repeat(32),
        WEBHOOK_SIGNING_KEY: 'w'.repeat(32),
        PROVIDER_SANDBOX: 'true',
      }),
    );
    const running = runtime.running!;
    expect(await statusOf(`${running.control}/faults`)).toBe(404);
    expect(
      await statusOf(`${running.control}/faults`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ provider: 'tripletex', kind: 'status', status: 503 }),
      }),
    ).toBe(404);
    expect(await statusOf(`${running.control}/reset`, { method: 'POST' })).toBe(404);
    expect(await statusOf(`${running.url}/`)).toBe(404);
    // The providers' own APIs still answer (here: a refusal without credentials, not a 404).
    expect(await statusOf(`${running.tripletexApi}/ledger/account`)).not.toBe(404);
    expect(runtime.control).not.toBeNull();
  });

  it('do not run in production unless PROVIDER_SANDBOX=true', async () => {
    const config = loadConfig({
      NODE_ENV: 'production',
      DATABASE_URL: 'postgres://app@127.0.0.1/db',
      GATEWAY_JWKS: jwks,
      GATEWAY_AUDIENCE: 'accounting-api',
      KEK_SOURCE: `local:${keyring}`,
      STATE_SECRET: 's'.repeat(32),
      WEBHOOK_SIGNING_KEY: 'w'.repeat(32),
      TRIPLETEX_CONSUMER_TOKEN: 'consumer-token',
    });
    runtime = await SandboxRuntime.start(config);
    expect(runtime.running).toBeNull();
  });
});
