/**
 * The part of PGlite the scheduler drives: one backend session, run one call at a time.
 * (`import type` of PGlite itself would pull an ESM-only package into this CommonJS module.)
 */
export interface SingleSessionDatabase {
  runExclusive<T>(work: () => Promise<T>): Promise<T>;
  execProtocolRawStream(message: Uint8Array, options: { onRawData: (data: Uint8Array) => void }): Promise<void>;
  isInTransaction(): boolean;
}

/** A run-time setting a connection changed for its session (SET, set_config(…, false)). */
interface SessionSetting {
  name: string;
  setting: string;
}

interface Pending {
  readonly connection: number;
  readonly message: Uint8Array;
  readonly onData: (data: Uint8Array) => void;
  readonly resolve: (bytes: number) => void;
  readonly reject: (error: Error) => void;
}

const READY_FOR_QUERY = 0x5a; // 'Z'
const IDLE = 0x49; // 'I': ReadyForQuery status outside a transaction block
const COPY_IN_RESPONSE = 0x47; // 'G'
const DATA_ROW = 0x44; // 'D'
const ERROR_RESPONSE = 0x45; // 'E'

/** Frontend messages that continue an exchange: the backend answers with ReadyForQuery only after the client's Sync. */
const EXTENDED_QUERY = new Set(['P', 'B', 'D', 'E', 'C', 'H'].map((c) => c.charCodeAt(0)));
/** Frontend messages of a COPY FROM STDIN in progress. */
const COPY_DATA = new Set(['d', 'c', 'f'].map((c) => c.charCodeAt(0)));

const SYNC = frontendMessage('S', '');
const COPY_FAIL = frontendMessage('f', 'the client disconnected\0');
const ROLLBACK = frontendMessage('Q', 'ROLLBACK\0');

/**
 * Reads the framing of the backend's answer to one message (type byte, 4-byte length, body; it may
 * arrive in several chunks) and keeps the status of the last ReadyForQuery and whether a COPY FROM
 * STDIN was started.
 */
class ResponseReader {
  /** The status byte of the last ReadyForQuery in the answer, or null if there was none. */
  readyStatus: number | null = null;
  copyIn = false;
  /** DataRow columns as text, and the first ErrorResponse's message: kept only for the scheduler's own queries. */
  readonly rows: string[][] = [];
  error: string | null = null;
  private readonly header = Buffer.alloc(5);
  private headerBytes = 0;
  private type = 0;
  private bodyLeft = 0;
  private body: Buffer[] = [];

  constructor(private readonly keepBodies = false) {}

  feed(chunk: Uint8Array): void {
    let offset = 0;
    while (offset < chunk.length) {
      if (this.bodyLeft > 0) {
        const take = Math.min(this.bodyLeft, chunk.length - offset);
        if (this.type === READY_FOR_QUERY) this.readyStatus = chunk[offset + take - 1];
        if (this.keepBodies) this.body.push(Buffer.from(chunk.subarray(offset, offset + take)));
        this.bodyLeft -= take;
        offset += take;
        if (this.bodyLeft === 0) this.complete();
        continue;
      }
      this.header[this.headerBytes++] = chunk[offset++];
      if (this.headerBytes === 5) {
        this.headerBytes = 0;
        this.type = this.header[0];
        this.bodyLeft = this.header.readInt32BE(1) - 4;
        this.body = [];
        if (this.type === READY_FOR_QUERY) this.copyIn = false;
        if (this.type === COPY_IN_RESPONSE) this.copyIn = true;
        if (this.bodyLeft === 0) this.complete();
      }
    }
  }

  private complete(): void {
    if (!this.keepBodies) return;
    const body = Buffer.concat(this.body);
    if (this.type === DATA_ROW) {
      const columns: string[] = [];
      let at = 2;
      for (let column = 0; column < body.readInt16BE(0); column++) {
        const length = body.readInt32BE(at);
        columns.push(length < 0 ? '' : body.toString('utf8', at + 4, at + 4 + length));
        at += 4 + Math.max(length, 0);
      }
      this.rows.push(columns);
    } else if (this.type === ERROR_RESPONSE && this.error === null) {
      const message = body
        .toString('utf8')
        .split('\0')
        .find((field) => field.startsWith('M'));
      this.error = message?.slice(1) ?? 'unknown error';
    }
  }
}

/**
 * Serialises the connections of pglite-socket onto PGlite's one backend session, whole exchanges
 * at a time.
 *
 * pglite-socket's own queue (0.2.17) hands PGlite one protocol message at a time and switches to
 * another connection after any message unless a transaction block is open. An extended-query
 * exchange (Parse, Bind, Describe, Execute … Sync) is not a transaction block, so a second
 * connection's Parse could land between a first connection's Parse and its Bind (whose bytes were
 * still arriving): the Bind then met the other statement ("bind message supplies N parameters, but
 * prepared statement requires M"), or worse ran it with the wrong parameters.
 *
 * Here the connection that sent the last message keeps the session until the backend is idle again:
 * until a ReadyForQuery with status 'I' answers one of its messages (after its Sync or simple
 * Query, outside a transaction block). Meanwhile the other connections' messages wait, in order.
 * Messages of one connection always run in the order they came.
 *
 * A connection that goes away while it holds the session has what it left open ended — a COPY
 * failed, an extended exchange synced, a transaction rolled back — so the next one starts on an
 * idle session.
 *
 * Run-time settings are per connection, as on a server with a backend each: when the session
 * passes to another connection, the settings the previous one changed (`SET search_path …`, as
 * pg_dump and psql do) are saved, reset, and the next one's restored. Otherwise a tool connected
 * beside the service would change the service's settings too.
 *
 * Implements the queue interface pglite-socket's PGLiteSocketHandler calls.
 */
export class SessionScheduler {
  private readonly queue: Pending[] = [];
  /** The connection whose exchange is in progress, or null when the session is idle. */
  private holder: number | null = null;
  /** How the holder left the session: inside an extended exchange (needs a Sync), in COPY IN (needs CopyFail). */
  private pendingSync = false;
  private pendingCopy = false;
  private running = false;
  /** The connection whose message PGlite is running. */
  private executing: number | null = null;
  /** Connections that closed while they held the session, or while their last message ran. */
  private readonly closed = new Set<number>();
  /** The connection whose settings the session has. */
  private settingsOf: number | null = null;
  private readonly savedSettings = new Map<number, SessionSetting[]>();

  constructor(private readonly db: SingleSessionDatabase) {}

  enqueue(connection: number, message: Uint8Array, onData: (data: Uint8Array) => void): Promise<number> {
    return new Promise<number>((resolve, reject) => {
      this.queue.push({ connection, message, onData, resolve, reject });
      void this.pump();
    });
  }

  getQueueLength(): number {
    return this.queue.length;
  }

  /** A connection closed: drops the messages it still had waiting, and its saved settings. */
  clearQueueForHandler(connection: number): void {
    this.closed.add(connection);
    this.savedSettings.delete(connection);
    // Whatever it changed is reset when the next connection gets the session.
    if (this.settingsOf === connection) this.settingsOf = null;
    for (let index = this.queue.length - 1; index >= 0; index--) {
      if (this.queue[index].connection !== connection) continue;
      const [dropped] = this.queue.splice(index, 1);
      dropped.reject(new Error('the connection closed'));
    }
  }

  /**
   * Called after clearQueueForHandler: if the closed connection holds the session (or is about to:
   * its last message may be running), the pump ends what it left open and lets the others in.
   */
  async clearTransactionIfNeeded(connection: number): Promise<void> {
    if (this.holder !== connection && this.executing !== connection) {
      this.closed.delete(connection);
      return;
    }
    await this.pump();
  }

  private release(): void {
    this.holder = null;
    this.pendingSync = false;
    this.pendingCopy = false;
  }

  /** Ends what a closed holder left open: a COPY, an extended exchange, a transaction. */
  private async endAbandoned(): Promise<void> {
    await this.db.runExclusive(async () => {
      const discard = { onRawData: () => undefined };
      if (this.pendingCopy) await this.db.execProtocolRawStream(COPY_FAIL, discard);
      if (this.pendingSync || this.pendingCopy) await this.db.execProtocolRawStream(SYNC, discard);
      if (this.db.isInTransaction()) await this.db.execProtocolRawStream(ROLLBACK, discard);
    });
    this.closed.delete(this.holder!);
    this.release();
  }

  private async pump(): Promise<void> {
    if (this.running) return;
    this.running = true;
    try {
      for (;;) {
        if (this.holder !== null && this.closed.has(this.holder)) {
          await this.endAbandoned();
          continue;
        }
        const index = this.holder === null ? 0 : this.queue.findIndex((p) => p.connection === this.holder);
        if (index < 0 || index >= this.queue.length) return;
        const [next] = this.queue.splice(index, 1);
        const reader = new ResponseReader();
        let bytes = 0;
        this.executing = next.connection;
        try {
          await this.db.runExclusive(async () => {
            if (this.settingsOf !== next.connection) await this.switchSettings(next.connection);
            await this.db.execProtocolRawStream(next.message, {
              onRawData: (data) => {
                bytes += data.length;
                reader.feed(data);
                next.onData(data);
              },
            });
          });
        } catch (error) {
          // PGlite itself failed: the handler drops the connection, and its close ends the exchange.
          this.executing = null;
          this.holder = next.connection;
          this.pendingSync = true;
          next.reject(error as Error);
          continue;
        }
        this.executing = null;
        this.settle(next, reader);
        if (this.holder !== next.connection) this.closed.delete(next.connection);
        next.resolve(bytes);
      }
    } finally {
      this.running = false;
    }
  }

  /**
   * Gives the (idle) session to `connection`'s settings: saves those the previous connection
   * changed, and when either side changed any, resets them all and restores `connection`'s. Runs
   * inside runExclusive, so it speaks the protocol itself (PGlite's query() would wait for the lock).
   */
  private async switchSettings(connection: number): Promise<void> {
    const changed = (await this.simpleQuery("SELECT name, setting FROM pg_settings WHERE source = 'session'")).map(
      ([name, setting]) => ({ name, setting }),
    );
    if (this.settingsOf !== null) this.savedSettings.set(this.settingsOf, changed);
    const wanted = this.savedSettings.get(connection) ?? [];
    if (changed.length > 0 || wanted.length > 0) {
      // Separately: the literals below are read with standard_conforming_strings as RESET ALL leaves it.
      await this.simpleQuery('RESET ALL');
      if (wanted.length > 0) {
        const literal = (text: string) => `'${text.replace(/'/g, "''")}'`;
        await this.simpleQuery(
          `SELECT set_config(${wanted.map(({ name, setting }) => `${literal(name)}, ${literal(setting)}, false`).join('), set_config(')})`,
        );
      }
    }
    this.settingsOf = connection;
  }

  /** Runs one simple query on the session (the caller holds runExclusive) and returns its rows, as text. */
  private async simpleQuery(sql: string): Promise<string[][]> {
    const reader = new ResponseReader(true);
    await this.db.execProtocolRawStream(frontendMessage('Q', `${sql}\0`), { onRawData: (data) => reader.feed(data) });
    if (reader.error !== null) throw new Error(`the embedded database refused "${sql}": ${reader.error}`);
    return reader.rows;
  }

  /** Who holds the session after `message`: nobody once the backend is idle, else its sender. */
  private settle(message: Pending, reader: ResponseReader): void {
    const type = message.message[0];
    if (reader.readyStatus !== null) {
      this.pendingSync = false;
      this.pendingCopy = reader.copyIn;
      if (reader.readyStatus === IDLE && !reader.copyIn) {
        this.release();
        return;
      }
    } else if (EXTENDED_QUERY.has(type)) {
      this.pendingSync = true;
    } else if (reader.copyIn || COPY_DATA.has(type)) {
      this.pendingCopy = this.pendingCopy || reader.copyIn || COPY_DATA.has(type);
    } else if (this.holder === null && !this.db.isInTransaction()) {
      return; // no answer and nothing open (Terminate, a stray Flush): the session stays idle
    }
    this.holder = message.connection;
  }
}

/** A frontend message: type byte, length, body. */
function frontendMessage(type: string, body: string): Uint8Array {
  const bytes = Buffer.from(body, 'utf8');
  const message = Buffer.alloc(5 + bytes.length);
  message.write(type, 0, 'latin1');
  message.writeInt32BE(4 + bytes.length, 1);
  bytes.copy(message, 5);
  return message;
}
