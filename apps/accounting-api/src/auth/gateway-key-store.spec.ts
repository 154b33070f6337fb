import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { generateKeyPairSync } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Logger } from '@nestjs/common';
import { loadConfig } from '../config/app-config';
import { GatewayKeyStore, JWKS_FILE_CHECK_MS } from './gateway-key-store';

const { publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
const jwks = JSON.stringify({ keys: [{ ...publicKey.export({ format: 'jwk' }), kid: 'gateway-1' }] });

describe('GatewayKeyStore with a JWKS URL', () => {
  let server: Server;
  let origin: string;

  beforeAll(async () => {
    server = createServer((request, response) => {
      if (request.url === '/jwks.json') {
        response.writeHead(200, { 'content-type': 'application/json' }).end(jwks);
      } else {
        response.writeHead(302, { location: '/jwks.json' }).end();
      }
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    jest.spyOn(Logger.prototype, 'error').mockImplementation(() => undefined);
  });
  afterAll(async () => {
    jest.restoreAllMocks();
    await new Promise((resolve) => server.close(resolve));
  });

  const storeFor = (url: string) =>
    new GatewayKeyStore(loadConfig({ GATEWAY_JWKS: url }), { now: () => new Date() } as never);

  it('loads the keys the URL serves', async () => {
    expect(await storeFor(`${origin}/jwks.json`).acceptedKids()).toEqual(['gateway-1']);
  });

  it('does not follow a redirect: no keys, so every token is refused', async () => {
    const store = storeFor(`${origin}/moved`);
    expect(await store.acceptedKids()).toEqual([]);
    await expect(store.keyFor('gateway-1')).rejects.toThrow(/unknown signing key/);
  });
});

describe('GatewayKeyStore with a JWKS file', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'jwks-'));
  const file = path.join(dir, 'jwks.json');
  const write = (kid: string) => {
    const document = JSON.stringify({ keys: [{ ...publicKey.export({ format: 'jwk' }), kid }] });
    fs.writeFileSync(`${file}.tmp`, document);
    fs.renameSync(`${file}.tmp`, file);
  };
  let store: GatewayKeyStore;
  beforeEach(() => {
    write('file-1');
    store = new GatewayKeyStore(loadConfig({ GATEWAY_JWKS: file }), { now: () => new Date() } as never);
  });
  afterEach(() => {
    store.onModuleDestroy();
    jest.restoreAllMocks();
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('without a change notice, looks at the file again only after JWKS_FILE_CHECK_MS', async () => {
    let now = 1_000_000;
    jest.spyOn(performance, 'now').mockImplementation(() => now);
    expect(await store.acceptedKids()).toEqual(['file-1']);
    store.onModuleDestroy(); // no more change notices: only the periodic look remains
    write('file-2');
    now += JWKS_FILE_CHECK_MS - 1;
    expect(await store.acceptedKids()).toEqual(['file-1']);
    now += 1;
    expect(await store.acceptedKids()).toEqual(['file-2']);
  });

  it('sees a key rotation as soon as the change is reported, before the periodic look', async () => {
    jest.spyOn(performance, 'now').mockReturnValue(1_000_000); // the periodic look never comes due
    expect(await store.acceptedKids()).toEqual(['file-1']);
    write('file-2');
    // Only the directory's change notice can make the store look again; fails by the test's timeout.
    while ((await store.acceptedKids())[0] !== 'file-2') await new Promise((resolve) => setImmediate(resolve));
    expect(await store.acceptedKids()).toEqual(['file-2']);
  });
});
