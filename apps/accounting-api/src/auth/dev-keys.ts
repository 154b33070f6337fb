import * as fs from 'node:fs';
import * as path from 'node:path';
import { createPrivateKey, generateKeyPairSync, randomBytes } from 'node:crypto';
import * as jwt from 'jsonwebtoken';
import type { Channel, Permission, Role } from '@app/domain';
import { ROLE_PERMISSIONS } from '@app/domain';
import { devJwksPath, devKeysDir } from '../config/app-config';
import { currentKey } from './key-rotation';

/**
 * The development key set: what the gateway's secret manager holds in production, generated into
 * DATA_DIR so that a newcomer can mint tokens. The public half (dev-keys/jwks.json) is the JWKS the
 * service trusts when GATEWAY_JWKS is unset; the private half (dev-keys/private.json, mode 0600)
 * is read only by the CLI's `token` command.
 */
interface PrivateKeyEntry {
  kid: string;
  activatedAt: string;
  jwk: Record<string, unknown>;
}

function privatePath(dataDir: string): string {
  return path.join(devKeysDir(dataDir), 'private.json');
}

function readPrivate(dataDir: string): PrivateKeyEntry[] {
  try {
    return (JSON.parse(fs.readFileSync(privatePath(dataDir), 'utf8')) as { keys: PrivateKeyEntry[] }).keys;
  } catch {
    return [];
  }
}

function writeAtomically(file: string, content: string, mode: number): void {
  const tmp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, content, { mode });
  fs.renameSync(tmp, file);
}

function newKey(activatedAt: Date): PrivateKeyEntry {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const kid = `dev-${activatedAt.toISOString().slice(0, 10)}-${randomBytes(4).toString('hex')}`;
  return { kid, activatedAt: activatedAt.toISOString(), jwk: privateKey.export({ format: 'jwk' }) };
}

function save(dataDir: string, keys: PrivateKeyEntry[]): void {
  fs.mkdirSync(devKeysDir(dataDir), { recursive: true, mode: 0o700 });
  writeAtomically(privatePath(dataDir), JSON.stringify({ keys }, null, 2), 0o600);
  const jwks = {
    keys: keys.map(({ kid, activatedAt, jwk }) => ({
      kty: 'RSA',
      kid,
      alg: 'RS256',
      use: 'sig',
      n: jwk.n,
      e: jwk.e,
      activatedAt,
    })),
  };
  // Written last: the service starts trusting a key only once its private half exists.
  writeAtomically(devJwksPath(dataDir), JSON.stringify(jwks, null, 2), 0o644);
}

/** Creates the dev key set on first start; returns true when it was created now. */
export function ensureDevKeys(dataDir: string, now: Date = new Date()): boolean {
  if (fs.existsSync(devJwksPath(dataDir)) && readPrivate(dataDir).length > 0) return false;
  save(dataDir, [newKey(now)]);
  return true;
}

/**
 * Adds a new key activated now. The previous key stays accepted for 24 h after this (§2); keys
 * whose grace has long passed are pruned so the set does not grow without end.
 */
export function rotateDevKeys(dataDir: string, now: Date = new Date()): { kid: string; previous?: string } {
  const keys = readPrivate(dataDir);
  const previous = currentKey(
    keys.map((k) => ({ ...k, activatedAt: new Date(k.activatedAt) })),
    now,
  )?.kid;
  const added = newKey(now);
  const weekAgo = now.getTime() - 7 * 24 * 3600 * 1000;
  const kept = keys.filter((k) => k.kid === previous || new Date(k.activatedAt).getTime() > weekAgo);
  save(dataDir, [...kept, added]);
  return { kid: added.kid, previous };
}

export interface DevTokenRequest {
  company: string;
  role: Role;
  sub: string;
  channel?: Channel;
  permissions?: Permission[];
  issuer: string;
  audience?: string;
  lifetimeSeconds?: number;
}

/** A gateway-shaped token signed with the current dev key. */
export function signDevToken(dataDir: string, request: DevTokenRequest, now: Date = new Date()): string {
  const keys = readPrivate(dataDir);
  const signing = currentKey(
    keys.map((k) => ({ ...k, activatedAt: new Date(k.activatedAt) })),
    now,
  );
  if (!signing) throw new Error(`no dev signing key in ${devKeysDir(dataDir)}: start the service once first`);
  const iat = Math.floor(now.getTime() / 1000);
  const payload = {
    iss: request.issuer,
    sub: request.sub,
    company_id: request.company,
    channel: request.channel ?? 'slack',
    role: request.role,
    permissions: request.permissions ?? [...ROLE_PERMISSIONS[request.role]],
    iat,
    exp: iat + (request.lifetimeSeconds ?? 3600),
    ...(request.audience ? { aud: request.audience } : {}),
  };
  const key = createPrivateKey({ key: signing.jwk as never, format: 'jwk' });
  return jwt.sign(payload, key, { algorithm: 'RS256', keyid: signing.kid });
}
