import * as net from 'node:net';
import { servePGlite, type PGliteServer } from './embedded-postgres';

/**
 * The embedded database's socket server, driven at the wire-protocol level: two connections on
 * PGlite's one session, one of which pauses in the middle of an extended-query exchange — as a
 * client does while the rest of a large Bind message (a receipt) is still on its way.
 */

function message(type: string, ...parts: Buffer[]): Buffer {
  const body = Buffer.concat(parts);
  const header = Buffer.alloc(5);
  header.write(type, 0, 'latin1');
  header.writeInt32BE(4 + body.length, 1);
  return Buffer.concat([header, body]);
}
const cstring = (text: string) => Buffer.from(`${text}\0`, 'utf8');
const int16 = (n: number) => Buffer.from([(n >> 8) & 0xff, n & 0xff]);
const int32 = (n: number) => {
  const b = Buffer.alloc(4);
  b.writeInt32BE(n);
  return b;
};

const parse = (sql: string) => message('P', cstring(''), cstring(sql), int16(0));
const bind = (values: string[]) =>
  message(
    'B',
    cstring(''),
    cstring(''),
    int16(0),
    int16(values.length),
    ...values.flatMap((v) => [int32(Buffer.byteLength(v)), Buffer.from(v)]),
    int16(0),
  );
const execute = () => message('E', cstring(''), int32(0));
const sync = () => message('S');
const query = (sql: string) => message('Q', cstring(sql));

interface Answer {
  type: string;
  body: Buffer;
}

/** A raw protocol client: sends bytes, collects the backend's messages. */
class RawClient {
  private buffer = Buffer.alloc(0);
  readonly answers: Answer[] = [];
  private waiters: (() => void)[] = [];

  private constructor(private readonly socket: net.Socket) {
    socket.on('data', (chunk: Buffer) => {
      this.buffer = Buffer.concat([this.buffer, chunk]);
      while (this.buffer.length >= 5) {
        const length = this.buffer.readInt32BE(1);
        if (this.buffer.length < 1 + length) break;
        this.answers.push({ type: String.fromCharCode(this.buffer[0]), body: this.buffer.subarray(5, 1 + length) });
        this.buffer = this.buffer.subarray(1 + length);
      }
      for (const wake of this.waiters.splice(0)) wake();
    });
  }

  static async connect(port: number): Promise<RawClient> {
    const socket = net.connect(port, '127.0.0.1');
    await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
    const client = new RawClient(socket);
    const startup = Buffer.concat([
      int32(196608),
      cstring('user'),
      cstring('postgres'),
      cstring('database'),
      cstring('postgres'),
      Buffer.from([0]),
    ]);
    socket.write(Buffer.concat([int32(startup.length + 4), startup]));
    await client.until('Z');
    client.answers.length = 0;
    return client;
  }

  send(...messages: Buffer[]): void {
    this.socket.write(Buffer.concat(messages));
  }

  /** Waits for the next message of `type`, and returns everything received up to it (then forgets it). */
  async until(type: string): Promise<Answer[]> {
    for (;;) {
      const index = this.answers.findIndex((a) => a.type === type);
      if (index >= 0) return this.answers.splice(0, index + 1);
      await new Promise<void>((resolve) => this.waiters.push(resolve));
    }
  }

  close(): void {
    this.socket.destroy();
  }
}

const dataRows = (answers: Answer[]) =>
  answers
    .filter((a) => a.type === 'D')
    .map((a) => {
      const columns: string[] = [];
      let offset = 2;
      for (let i = 0; i < a.body.readInt16BE(0); i++) {
        const length = a.body.readInt32BE(offset);
        columns.push(a.body.subarray(offset + 4, offset + 4 + length).toString());
        offset += 4 + length;
      }
      return columns;
    });
const errors = (answers: Answer[]) => answers.filter((a) => a.type === 'E').map((a) => a.body.toString('latin1'));

describe('servePGlite: connections take turns on the one session by whole exchanges', () => {
  let db: { close(): Promise<void>; query(sql: string): Promise<{ rows: unknown[] }> } & Parameters<
    typeof servePGlite
  >[0];
  let server: PGliteServer;
  let port: number;

  beforeAll(async () => {
    const { PGlite } = await import('@electric-sql/pglite');
    db = await PGlite.create();
    server = await servePGlite(db, { host: '127.0.0.1', port: 0 }, 8);
    port = (server.address as net.AddressInfo).port;
  });

  afterAll(async () => {
    await server.stop();
    await db.close();
  });

  it('runs another connection’s exchange only after the first one’s Sync, so each Bind meets its own Parse', async () => {
    const first = await RawClient.connect(port);
    const second = await RawClient.connect(port);

    first.send(parse('SELECT $1::int + 1 AS n'));
    await first.until('1'); // ParseComplete: the rest of the exchange is not sent yet
    second.send(parse('SELECT $1::text || $2::text AS s'), bind(['x', 'y']), execute(), sync());
    await new Promise((resolve) => setTimeout(resolve, 100));
    first.send(bind(['41']), execute(), sync());

    const firstAnswers = await first.until('Z');
    const secondAnswers = await second.until('Z');
    expect(errors(firstAnswers)).toEqual([]);
    expect(dataRows(firstAnswers)).toEqual([['42']]);
    expect(errors(secondAnswers)).toEqual([]);
    expect(dataRows(secondAnswers)).toEqual([['xy']]);
    first.close();
    second.close();
  });

  it('keeps a transaction’s statements together and lets the other connection in after COMMIT', async () => {
    const first = await RawClient.connect(port);
    const second = await RawClient.connect(port);
    first.send(query('CREATE TABLE kept (n int)'));
    await first.until('Z');
    first.send(query('BEGIN; INSERT INTO kept VALUES (1)'));
    await first.until('Z');
    second.send(query('SELECT count(*) FROM kept'));
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(second.answers).toEqual([]); // waiting: it would otherwise see the open transaction's row
    first.send(query('INSERT INTO kept VALUES (2); COMMIT'));
    await first.until('Z');
    expect(dataRows(await second.until('Z'))).toEqual([['2']]);
    first.close();
    second.close();
  });

  it('ends what a connection that went away left open: its exchange, its transaction', async () => {
    const first = await RawClient.connect(port);
    first.send(query('CREATE TABLE left_open (n int)'));
    await first.until('Z');
    first.send(query('BEGIN; INSERT INTO left_open VALUES (1)'));
    await first.until('Z');
    first.send(parse('INSERT INTO left_open VALUES ($1::int)'), bind(['2']));
    await first.until('2'); // BindComplete, no Sync: mid-exchange inside a transaction
    first.close();

    const second = await RawClient.connect(port);
    second.send(query('SELECT count(*) FROM left_open'));
    const answers = await second.until('Z');
    expect(errors(answers)).toEqual([]);
    expect(dataRows(answers)).toEqual([['0']]);
    expect(answers[answers.length - 1].body.toString('latin1')).toBe('I'); // idle, not in a transaction
    second.close();
  });

  it('keeps each connection’s run-time settings its own, as pg_dump’s SET search_path', async () => {
    const tool = await RawClient.connect(port);
    const service = await RawClient.connect(port);
    service.send(query('SHOW search_path'));
    const [[searchPath]] = dataRows(await service.until('Z'));
    expect(searchPath).toMatch(/public/);
    tool.send(query("SELECT pg_catalog.set_config('search_path', '', false); SET statement_timeout = '5s'"));
    await tool.until('Z');

    service.send(query('SHOW search_path'));
    expect(dataRows(await service.until('Z'))).toEqual([[searchPath]]);
    service.send(query("SET application_name = 'service'"));
    await service.until('Z');
    tool.send(query('SHOW search_path; SHOW statement_timeout; SHOW application_name'));
    expect(dataRows(await tool.until('Z'))).toEqual([[''], ['5s'], ['']]);

    tool.close();
    await new Promise((resolve) => setTimeout(resolve, 50));
    service.send(query('SHOW search_path; SHOW statement_timeout; SHOW application_name'));
    expect(dataRows(await service.until('Z'))).toEqual([[searchPath], ['0'], ['service']]);
    service.close();
  });
});
