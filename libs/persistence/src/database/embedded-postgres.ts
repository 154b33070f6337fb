import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { createHash } from 'node:crypto';

/** The PostgreSQL port number in the socket file name (`.s.PGSQL.<port>`), as the pg driver expects. */
const SOCKET_PORT = 5432;
/** Unix socket paths are limited to ~107 bytes; longer data dirs get their socket under the temp dir. */
const MAX_SOCKET_PATH = 100;

export interface ServiceLock {
  pid: number;
  hostname: string;
  socketDir: string;
  port: number;
  startedAt: string;
}

export interface EmbeddedConnection {
  /** pg connection settings: a unix-socket directory as host, the socket's port number. */
  host: string;
  port: number;
  username: string;
  database: string;
}

function lockPath(dataDir: string): string {
  return path.join(dataDir, 'service.lock');
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else: still alive.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * The lock a live process holds on DATA_DIR, or null when none does. A lock left by a dead process
 * (or written on another host, which cannot serve a local socket here) is stale and is reported
 * as null; the next holder removes it.
 */
export function readLiveLock(dataDir: string): ServiceLock | null {
  let raw: string;
  try {
    raw = fs.readFileSync(lockPath(dataDir), 'utf8');
  } catch {
    return null;
  }
  try {
    const lock = JSON.parse(raw) as ServiceLock;
    if (lock.hostname !== os.hostname() || !isAlive(lock.pid)) return null;
    return lock;
  } catch {
    return null; // a half-written or corrupt lock file: its writer died mid-write
  }
}

function socketDirFor(dataDir: string): string {
  const preferred = path.resolve(dataDir);
  if (path.join(preferred, `.s.PGSQL.${SOCKET_PORT}`).length <= MAX_SOCKET_PATH) return preferred;
  const short = path.join(os.tmpdir(), `acct-pg-${createHash('sha256').update(preferred).digest('hex').slice(0, 12)}`);
  fs.mkdirSync(short, { recursive: true, mode: 0o700 });
  return short;
}

export class DataDirLocked extends Error {
  constructor(readonly lock: ServiceLock) {
    super(`DATA_DIR is in use by process ${lock.pid} (since ${lock.startedAt}); stop it first or use its socket`);
  }
}

/**
 * Embedded PostgreSQL: PGlite persisted under DATA_DIR, served on a unix socket by pglite-socket so
 * that the ordinary `pg` driver and TypeORM's postgres dialect work unchanged.
 *
 * PGlite has no file lock of its own and two processes opening one directory corrupt it, so the
 * process that opens it writes DATA_DIR/service.lock (pid, host, socket). Others (the CLI) connect
 * through that socket while the holder lives; a lock whose process is gone is stale and replaced.
 */
export class EmbeddedPostgres {
  private db?: { close(): Promise<void> };
  private server?: { start(): Promise<void>; stop(): Promise<void> };
  private lock?: ServiceLock;

  constructor(
    private readonly dataDir: string,
    private readonly maxConnections = 32,
  ) {}

  async start(): Promise<EmbeddedConnection> {
    fs.mkdirSync(this.dataDir, { recursive: true, mode: 0o700 });
    this.lock = this.acquireLock();
    try {
      // ESM-only packages, loaded through Node's require(esm).
      const { PGlite } = await import('@electric-sql/pglite');
      const { pg_trgm } = await import('@electric-sql/pglite/contrib/pg_trgm');
      const { PGLiteSocketServer } = await import('@electric-sql/pglite-socket');
      const db = await PGlite.create(path.join(this.dataDir, 'pgdata'), { extensions: { pg_trgm } });
      this.db = db;
      const socketFile = path.join(this.lock.socketDir, `.s.PGSQL.${SOCKET_PORT}`);
      fs.rmSync(socketFile, { force: true }); // left by a crashed holder
      const server = new PGLiteSocketServer({ db, path: socketFile, maxConnections: this.maxConnections });
      await server.start();
      this.server = server;
      return connectionFor(this.lock);
    } catch (error) {
      await this.stop();
      throw error;
    }
  }

  async stop(): Promise<void> {
    await this.server?.stop().catch(() => undefined);
    await this.db?.close().catch(() => undefined);
    this.server = undefined;
    this.db = undefined;
    if (this.lock) {
      const current = readLiveLock(this.dataDir);
      if (current?.pid === process.pid) fs.rmSync(lockPath(this.dataDir), { force: true });
      this.lock = undefined;
    }
  }

  private acquireLock(): ServiceLock {
    const file = lockPath(this.dataDir);
    const lock: ServiceLock = {
      pid: process.pid,
      hostname: os.hostname(),
      socketDir: socketDirFor(this.dataDir),
      port: SOCKET_PORT,
      startedAt: new Date().toISOString(),
    };
    for (let attempt = 0; attempt < 2; attempt++) {
      try {
        fs.writeFileSync(file, JSON.stringify(lock), { flag: 'wx', mode: 0o600 });
        return lock;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
        const holder = readLiveLock(this.dataDir);
        if (holder) throw new DataDirLocked(holder);
        fs.rmSync(file, { force: true }); // stale: its process is gone
      }
    }
    throw new Error(`could not take the lock ${file}`);
  }
}

export function connectionFor(lock: ServiceLock): EmbeddedConnection {
  return { host: lock.socketDir, port: lock.port, username: 'postgres', database: 'postgres' };
}
