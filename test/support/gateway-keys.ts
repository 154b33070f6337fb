import * as fs from 'node:fs';
import { createSign, generateKeyPairSync, type KeyObject } from 'node:crypto';

/** A test stand-in for the gateway: RSA signing keys and the JWKS file the service trusts. */
export interface TestKey {
  kid: string;
  privateKey: KeyObject;
  publicKey: KeyObject;
  activatedAt?: Date;
}

const pool: KeyObject[][] = [];

export function makeKey(kid: string, activatedAt?: Date): TestKey {
  // Key generation is slow-ish; reuse pairs across keys with different kids within a test file.
  const index = pool.length;
  if (index < 4) {
    const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    pool.push([privateKey, publicKey]);
  }
  const [privateKey, publicKey] = pool[index % 4]!;
  return { kid, privateKey: privateKey!, publicKey: publicKey!, activatedAt };
}

export function writeJwks(file: string, keys: TestKey[]): void {
  const document = {
    keys: keys.map((k) => ({
      ...(k.publicKey.export({ format: 'jwk' }) as object),
      kid: k.kid,
      alg: 'RS256',
      use: 'sig',
      ...(k.activatedAt ? { activatedAt: k.activatedAt.toISOString() } : {}),
    })),
  };
  const tmp = `${file}.tmp`;
  fs.writeFileSync(tmp, JSON.stringify(document));
  fs.renameSync(tmp, file);
}

export interface Claims {
  iss?: unknown;
  sub?: unknown;
  company_id?: unknown;
  channel?: unknown;
  role?: unknown;
  permissions?: unknown;
  iat?: unknown;
  exp?: unknown;
  aud?: unknown;
  [claim: string]: unknown;
}

/** The `aud` of the test tokens: the GATEWAY_AUDIENCE the test services run with. */
export const TEST_AUDIENCE = 'accounting-api';

export function validClaims(company: string, now: Date, overrides: Claims = {}): Claims {
  const iat = Math.floor(now.getTime() / 1000);
  return {
    iss: 'agent-gateway',
    aud: TEST_AUDIENCE,
    sub: 'ola@demo.no',
    company_id: company,
    channel: 'slack',
    role: 'admin',
    permissions: ['solve', 'query', 'facts', 'monitor', 'rules', 'config'],
    iat,
    exp: iat + 3600,
    ...overrides,
  };
}

/**
 * Signs claims as the gateway would (RS256 over header.payload), byte for byte what we choose:
 * `undefined` claims are left out, and no library adds or checks anything.
 */
export function sign(
  key: TestKey,
  claims: Claims,
  options: { kid?: string | null; alg?: string; header?: Record<string, unknown> } = {},
): string {
  const payload = Object.fromEntries(Object.entries(claims).filter(([, v]) => v !== undefined));
  const kid = options.kid === null ? undefined : (options.kid ?? key.kid);
  const header = { alg: options.alg ?? 'RS256', typ: 'JWT', ...(kid ? { kid } : {}), ...options.header };
  const encode = (part: object) => Buffer.from(JSON.stringify(part)).toString('base64url');
  const input = `${encode(header)}.${encode(payload)}`;
  const signature = createSign('RSA-SHA256').update(input).sign(key.privateKey).toString('base64url');
  return `${input}.${signature}`;
}
