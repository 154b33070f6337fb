import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import request from 'supertest';
import { Client, type ClientConfig } from 'pg';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { randomUUID } from 'node:crypto';
import { EventStore } from '@app/domain';
import { DataDirLocked, Database, EventSealer, readLiveLock } from '@app/persistence';
import { aChainEvent } from '@app/testing';
import { createApp } from '../apps/accounting-api/src/bootstrap';
import { buildCli } from '../apps/accounting-api/src/cli';
import { loadConfig, type AppConfig } from '../apps/accounting-api/src/config/app-config';

/**
 * The embedded default: no DATABASE_URL, a PostgreSQL server of its own under DATA_DIR on a
 * local port, the directory held by a lock, the CLI connecting to the running service's server.
 * These tests always start their own, whatever database the rest of the suite runs on.
 */
describe('embedded PostgreSQL under DATA_DIR, and the CLI', () => {
  let dataDir: string;
  let config: AppConfig;
  let app: NestExpressApplication | undefined;

  const cli = async (...args: string[]): Promise<string[]> => {
    const lines: string[] = [];
    await buildCli(
      () => config,
      (line) => lines.push(line),
    ).parseAsync(['node', 'cli', ...args]);
    return lines;
  };
  const start = async () => {
    app = await createApp(config, { bufferLogs: false });
    await app.init();
    return request(app.getHttpServer());
  };
  const stop = async () => {
    await app?.close();
    app = undefined;
  };

  beforeAll(() => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'acct-emb-'));
    config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent', NODE_ENV: 'test' });
  });
  afterAll(async () => {
    await stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('starts on a fresh DATA_DIR: migrated, demo company created, dev keys generated, lock held', async () => {
    expect(config.databaseUrl).toBeUndefined();
    const http = await start();
    expect((await http.get('/health')).body).toEqual({ status: 'ok', checks: { database: 'up' } });
    expect(fs.existsSync(path.join(dataDir, 'dev-keys', 'jwks.json'))).toBe(true);
    expect((fs.statSync(path.join(dataDir, 'dev-keys', 'private.json')).mode & 0o777).toString(8)).toBe('600');
    expect(readLiveLock(dataDir)?.pid).toBe(process.pid);

    const [token] = await cli('token', '--company', 'demo', '--role', 'accountant', '--sub', 'ola@demo.no');
    const res = await http.get('/v1/whoami').set('Authorization', `Bearer ${token}`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ actor: 'ola@demo.no', company: 'demo', role: 'accountant' });
  });

  it('refuses a second process opening the same DATA_DIR while the lock is live', async () => {
    await expect(Database.open({ dataDir, role: 'service' })).rejects.toBeInstanceOf(DataDirLocked);
  });

  it('lets in only the password kept in DATA_DIR/pg-password (0600), on 127.0.0.1 alone', async () => {
    const { port } = readLiveLock(dataDir)!;
    const passwordFile = path.join(dataDir, 'pg-password');
    expect((fs.statSync(passwordFile).mode & 0o777).toString(8)).toBe('600');
    const password = fs.readFileSync(passwordFile, 'utf8').trim();
    const connect = async (options: ClientConfig): Promise<string> => {
      const client = new Client({
        port,
        user: 'postgres',
        database: 'postgres',
        connectionTimeoutMillis: 5_000,
        ...options,
      });
      try {
        await client.connect();
        return 'connected';
      } catch (error) {
        return (error as Error).message;
      } finally {
        await client.end().catch(() => undefined);
      }
    };
    expect(await connect({ host: '127.0.0.1', password })).toBe('connected');
    expect(await connect({ host: '127.0.0.1', password: 'not-the-password' })).toMatch(
      /password authentication failed/,
    );
    expect(await connect({ host: '127.0.0.1', password: '' })).not.toBe('connected');
    // No unix socket (the default directory) and no other address of this host.
    expect(await connect({ host: '/tmp', password })).toMatch(/ENOENT|ECONNREFUSED/);
    const external = Object.values(os.networkInterfaces())
      .flat()
      .find((address) => address?.family === 'IPv4' && !address.internal);
    if (external) expect(await connect({ host: external.address, password })).toMatch(/ECONNREFUSED/);
  });

  it("lets the CLI work through the running service's server", async () => {
    expect(await cli('company', 'create', 'acme', '--name', 'Acme AS')).toEqual(['created company acme (Acme AS)']);
    const listed = await cli('company', 'list', '--json');
    expect(JSON.parse(listed[0]!).map((c: { id: string }) => c.id)).toEqual(['acme', 'demo', 'demo-fiken']);
    await expect(cli('company', 'create', 'acme', '--name', 'Again')).rejects.toThrow(/already exists/);
    await expect(cli('company', 'create', 'Not Valid!', '--name', 'x')).rejects.toThrow(/company id/);
    expect(await cli('db', 'migrate')).toEqual(['the database is up to date']);

    const [token] = await cli(
      'token',
      '--company',
      'acme',
      '--role',
      'employee',
      '--sub',
      'kari@acme.no',
      '--channel',
      'web',
    );
    const http = request(app!.getHttpServer());
    expect((await http.get('/v1/whoami').set('Authorization', `Bearer ${token}`)).body).toMatchObject({
      company: 'acme',
      channel: 'web',
      permissions: ['solve', 'query', 'facts'],
    });
  });

  it("keys the audit trail under DATA_DIR's keyring: the service seals, the CLI verifies, kek rotate re-wraps the chain key", async () => {
    const chain = randomUUID();
    await app!.get(EventStore).append([aChainEvent('demo', chain, 1)]);
    expect(await app!.get(EventSealer).sealPending()).toMatchObject({ sealed: 1 });
    expect(await cli('events', 'verify', '--company', 'demo')).toEqual(['ok: 1 event(s) of 1 company(ies), no break']);

    const rotated = await cli('kek', 'rotate');
    expect(rotated[1]).toBe('event chain key: 1 version(s) re-wrapped, 0 already current, 0 failed (of 1)');
    // The service keeps sealing with the key it holds; a fresh process unwraps it under the new KEK.
    await app!.get(EventStore).append([aChainEvent('demo', chain, 2)]);
    expect(await app!.get(EventSealer).sealPending()).toMatchObject({ sealed: 1 });
    expect(await cli('events', 'verify', '--company', 'demo')).toEqual(['ok: 2 event(s) of 1 company(ies), no break']);
  });

  it('rotates the dev keys: the new key signs, a token of the old key is still accepted', async () => {
    const [before] = await cli('token', '--company', 'demo', '--role', 'admin', '--sub', 'ola@demo.no');
    const [message] = await cli('keys', 'rotate');
    expect(message).toMatch(/new signing key dev-.*stays accepted for 24 h/);
    const [after] = await cli('token', '--company', 'demo', '--role', 'admin', '--sub', 'ola@demo.no');
    const kid = (t: string) => JSON.parse(Buffer.from(t.split('.')[0]!, 'base64url').toString()).kid;
    expect(kid(after!)).not.toBe(kid(before!));
    const http = request(app!.getHttpServer());
    expect((await http.get('/v1/whoami').set('Authorization', `Bearer ${before}`)).status).toBe(200);
    expect((await http.get('/v1/whoami').set('Authorization', `Bearer ${after}`)).status).toBe(200);
  });

  it('keeps the data across a restart', async () => {
    await stop();
    expect(readLiveLock(dataDir)).toBeNull();
    const http = await start();
    const [token] = await cli('token', '--company', 'acme', '--role', 'employee', '--sub', 'kari@acme.no');
    expect((await http.get('/v1/whoami').set('Authorization', `Bearer ${token}`)).status).toBe(200);
  });

  it('opens DATA_DIR itself from the CLI when no service runs, and detects a stale lock', async () => {
    await stop();
    // A lock left by a process that died: the pid no longer exists.
    fs.writeFileSync(
      path.join(dataDir, 'service.lock'),
      JSON.stringify({
        pid: 2 ** 22 + 12345,
        hostname: os.hostname(),
        port: 1,
        startedAt: '2026-01-01T00:00:00Z',
      }),
    );
    expect(readLiveLock(dataDir)).toBeNull();
    const listed = await cli('company', 'list', '--json');
    expect(JSON.parse(listed[0]!).map((c: { id: string }) => c.id)).toEqual(['acme', 'demo', 'demo-fiken']);
    expect(readLiveLock(dataDir)).toBeNull(); // the CLI released the directory again
    const http = await start();
    expect((await http.get('/health')).status).toBe(200);
  });

  it('refuses a DATA_DIR whose pgdata it did not create (no pg-password), saying what to do', async () => {
    const old = fs.mkdtempSync(path.join(os.tmpdir(), 'acct-emb-old-'));
    try {
      fs.mkdirSync(path.join(old, 'pgdata'));
      fs.writeFileSync(path.join(old, 'pgdata', 'PG_VERSION'), '17\n');
      await expect(Database.open({ dataDir: old, role: 'service' })).rejects.toThrow(/move it aside and start afresh/);
      expect(readLiveLock(old)).toBeNull();
    } finally {
      fs.rmSync(old, { recursive: true, force: true });
    }
  });

  it('refuses to mint tokens or rotate keys when a real gateway JWKS is configured', async () => {
    const real = loadConfig({
      DATA_DIR: dataDir,
      GATEWAY_JWKS: path.join(dataDir, 'gateway.json'),
      LOG_LEVEL: 'silent',
    });
    const run = (...args: string[]) =>
      buildCli(
        () => real,
        () => undefined,
      ).parseAsync(['node', 'cli', ...args]);
    await expect(run('token', '--company', 'demo', '--role', 'admin', '--sub', 'a@b.no')).rejects.toThrow(
      /only with the dev key set/,
    );
    await expect(run('keys', 'rotate')).rejects.toThrow(/only with the dev key set/);
  });
});
