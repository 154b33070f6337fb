import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { createPrivateKey, createPublicKey, createSign, generateKeyPairSync, type KeyObject } from 'node:crypto';

/** A test stand-in for the gateway: RSA signing keys and the JWKS file the service trusts. */
export interface TestKey {
  kid: string;
  privateKey: KeyObject;
  publicKey: KeyObject;
  activatedAt?: Date;
}

const pool: KeyObject[][] = [];
const POOL_SIZE = 4;

/**
 * The `index`th RSA pair of the pool. A 2048-bit key takes about 0.15 s of CPU to generate, and
 * every suite that starts a service signs with one to four: the pairs are kept under the OS's
 * temporary directory and read by every later test file and run (a pair any process writes is as
 * good as another's; each process signs and publishes the one it read).
 */
function pair(index: number): KeyObject[] {
  const file = path.join(os.tmpdir(), `accounting-api-test-gateway-keys-${os.userInfo().uid}`, `rsa-${index}.pem`);
  try {
    const privateKey = createPrivateKey(fs.readFileSync(file, 'utf8'));
    return [privateKey, createPublicKey(privateKey)];
  } catch {
    const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
    const temporary = `${file}.${process.pid}.tmp`;
    fs.writeFileSync(temporary, privateKey.export({ format: 'pem', type: 'pkcs8' }), { mode: 0o600 });
    fs.renameSync(temporary, file);
    return [privateKey, publicKey];
  }
}

export function makeKey(kid: string, activatedAt?: Date): TestKey {
  // Key pairs are reused across keys with different kids: four distinct pairs in a test file.
  const index = pool.length;
  if (index < POOL_SIZE) pool.push(pair(index));
  const [privateKey, publicKey] = pool[index % POOL_SIZE]!;
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
