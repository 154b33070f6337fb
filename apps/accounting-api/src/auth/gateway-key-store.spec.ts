import { generateKeyPairSync } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Logger } from '@nestjs/common';
import { loadConfig } from '../config/app-config';
import { GatewayKeyStore } from './gateway-key-store';

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
