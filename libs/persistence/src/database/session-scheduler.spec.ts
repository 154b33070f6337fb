import { SessionScheduler, type SingleSessionDatabase } from './session-scheduler';

const frame = (type: string, body: Buffer = Buffer.alloc(0)): Buffer => {
  const header = Buffer.alloc(5);
  header.write(type, 0, 'latin1');
  header.writeInt32BE(4 + body.length, 1);
  return Buffer.concat([header, body]);
};
const readyIdle = frame('Z', Buffer.from('I'));

/**
 * A stand-in for PGlite that records which message ran, answers as the backend would (ParseComplete
 * to a Parse, ReadyForQuery 'I' to a Sync or a query) and can hold a message until the test lets it
 * finish.
 */
class FakeSession implements SingleSessionDatabase {
  readonly ran: string[] = [];
  private lock: Promise<unknown> = Promise.resolve();
  private hold: { released: Promise<void>; reached: () => void } | null = null;

  /** The next message waits inside PGlite until `release()`; `reached` resolves once it is there. */
  holdNext(): { release: () => void; reached: Promise<void> } {
    let release!: () => void;
    let reach!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    const reached = new Promise<void>((resolve) => (reach = resolve));
    this.hold = { released, reached: reach };
    return { release, reached };
  }

  runExclusive<T>(work: () => Promise<T>): Promise<T> {
    const run = this.lock.then(work);
    this.lock = run.catch(() => undefined);
    return run;
  }

  async execProtocolRawStream(message: Uint8Array, options: { onRawData: (data: Uint8Array) => void }): Promise<void> {
    const type = String.fromCharCode(message[0]);
    const text = Buffer.from(message.subarray(5)).toString('latin1').replace(/\0+$/, '');
    if (type === 'Q' && text.includes('pg_settings')) {
      options.onRawData(Buffer.concat([frame('C', Buffer.from('SELECT 0\0')), readyIdle]));
      return;
    }
    this.ran.push(type === 'Q' ? `Q ${text}` : type);
    if (this.hold) {
      const { released, reached } = this.hold;
      this.hold = null;
      reached();
      await released;
    }
    if (type === 'P') options.onRawData(frame('1'));
    else if (type === 'S' || type === 'Q') options.onRawData(readyIdle);
  }

  isInTransaction(): boolean {
    return false;
  }
}

const message = (type: string, body = ''): Uint8Array => frame(type, Buffer.from(body, 'latin1'));
const noop = () => undefined;

describe('SessionScheduler', () => {
  it('serves a connection that closed while its Parse ran no further, syncs what it left open, then the others', async () => {
    const db = new FakeSession();
    const scheduler = new SessionScheduler(db);
    const gate = db.holdNext();
    const parse = scheduler.enqueue(1, message('P', '\0SELECT 1\0\0\0'), noop);
    await gate.reached;
    const other = scheduler.enqueue(2, message('Q', 'SELECT 2\0'), noop);
    // Connection 1 goes away while PGlite still runs its Parse.
    scheduler.clearQueueForHandler(1);
    const cleared = scheduler.clearTransactionIfNeeded(1);
    gate.release();
    await Promise.all([parse, other, cleared]);

    expect(db.ran).toEqual(['P', 'S', 'Q SELECT 2']);
  });

  it('keeps the session for the connection in an exchange until its Sync, whatever arrives meanwhile', async () => {
    const db = new FakeSession();
    const scheduler = new SessionScheduler(db);
    await scheduler.enqueue(1, message('P', '\0SELECT $1\0\0\0'), noop);
    const other = scheduler.enqueue(2, message('Q', 'SELECT 2\0'), noop);
    await new Promise((resolve) => setImmediate(resolve));
    expect(db.ran).toEqual(['P']);
    await scheduler.enqueue(1, message('B'), noop);
    await scheduler.enqueue(1, message('S'), noop);
    await other;

    expect(db.ran).toEqual(['P', 'B', 'S', 'Q SELECT 2']);
  });
});
