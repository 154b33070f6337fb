import * as fs from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { createHash } from 'node:crypto';
import { SessionScheduler, type SingleSessionDatabase } from './session-scheduler';

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

/** A running socket server in front of a PGlite database. */
export interface PGliteServer {
  /** The unix socket path, or the TCP address it listens on. */
  readonly address: string | net.AddressInfo;
  stop(): Promise<void>;
}

/**
 * Serves a PGlite database to `pg` clients on a unix socket or TCP: pglite-socket's per-connection
 * handler (startup, SSL refusal, message framing) with a SessionScheduler as its queue, so that
 * the connections take turns by whole exchanges on PGlite's one session (see SessionScheduler).
 * pglite-socket's own server offers no such option: its `maxConnections` of 1 refuses a second
 * client outright (the CLI beside the service), and more lets protocol messages interleave.
 */
export async function servePGlite(
  db: SingleSessionDatabase,
  listen: { path: string } | { host: string; port: number },
  maxConnections: number,
): Promise<PGliteServer> {
  const { PGLiteSocketHandler } = await import('@electric-sql/pglite-socket');
  type HandlerOptions = ConstructorParameters<typeof PGLiteSocketHandler>[0];
  const scheduler = new SessionScheduler(db);
  const handlers = new Set<InstanceType<typeof PGLiteSocketHandler>>();
  const server = net.createServer((socket) => {
    if (handlers.size >= maxConnections) {
      socket.destroy();
      return;
    }
    const handler = new PGLiteSocketHandler({
      // The handler calls enqueue / clearQueueForHandler / clearTransactionIfNeeded, which the scheduler implements.
      queryQueue: scheduler as unknown as HandlerOptions['queryQueue'],
      closeOnDetach: true,
    });
    handlers.add(handler);
    handler.addEventListener('close', () => handlers.delete(handler));
    handler.addEventListener('error', () => handlers.delete(handler));
    handler.attach(socket).catch(() => {
      handlers.delete(handler);
      socket.destroy();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    const ready = () => {
      server.off('error', reject);
      resolve();
    };
    if ('path' in listen) server.listen(listen.path, ready);
    else server.listen(listen.port, listen.host, ready);
  });
  const address = server.address();
  return {
    address: address ?? '',
    async stop() {
      for (const handler of handlers) await handler.detach(true).catch(() => undefined);
      handlers.clear();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/**
 * Embedded PostgreSQL: PGlite persisted under DATA_DIR, served on a unix socket (servePGlite) so
 * that the ordinary `pg` driver and TypeORM's postgres dialect work unchanged.
 *
 * PGlite has no file lock of its own and two processes opening one directory corrupt it, so the
 * process that opens it writes DATA_DIR/service.lock (pid, host, socket). Others (the CLI) connect
 * through that socket while the holder lives; a lock whose process is gone is stale and replaced.
 */
export class EmbeddedPostgres {
  private db?: { close(): Promise<void> };
  private server?: PGliteServer;
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
      const db = await PGlite.create(path.join(this.dataDir, 'pgdata'), { extensions: { pg_trgm } });
      this.db = db;
      const socketFile = path.join(this.lock.socketDir, `.s.PGSQL.${SOCKET_PORT}`);
      fs.rmSync(socketFile, { force: true }); // left by a crashed holder
      this.server = await servePGlite(db, { path: socketFile }, this.maxConnections);
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
