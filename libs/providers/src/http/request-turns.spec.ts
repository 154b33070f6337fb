import { InMemorySharedRequestSlots } from '@app/testing';
import { SharedRequestSlots, SharedSlotUnavailable, type SlotHold } from '../ports/shared-request-slots.port';
import { RequestTurns } from './request-turns';
import { sleep } from './sleep';
import { TransportError } from './transport-error';

/** Two "instances" (two RequestTurns) on one shared store, each request recorded as [start, end]. */
function twoInstances(paceMs: number) {
  const shared = new InMemorySharedRequestSlots();
  const make = () => new RequestTurns({ provider: 'fiken', name: 'fiken:test', localLimit: 1, paceMs, shared });
  const spans: Array<[number, number]> = [];
  const request = (ms: number) => async () => {
    const start = Date.now();
    await sleep(ms);
    spans.push([start, Date.now()]);
    return start;
  };
  return { a: make(), b: make(), spans, request };
}

describe('RequestTurns', () => {
  it('never runs two requests of two instances at once, and keeps their starts a pace apart', async () => {
    const { a, b, spans, request } = twoInstances(40);
    await Promise.all(
      Array.from({ length: 12 }, (_, i) => (i % 2 === 0 ? a : b).run(request(i % 3 === 0 ? 15 : 1), 'urgent')),
    );
    spans.sort((x, y) => x[0] - y[0]);
    for (let i = 1; i < spans.length; i++) {
      expect(spans[i][0]).toBeGreaterThanOrEqual(spans[i - 1][1]);
      // setTimeout may fire up to a millisecond early against Date.now().
      expect(spans[i][0] - spans[i - 1][0]).toBeGreaterThanOrEqual(39);
    }
  });

  it('hands the answer back without waiting for the pace', async () => {
    const { a } = twoInstances(800);
    let answered = false;
    const answer = a
      .run(() => Promise.resolve('answer'))
      .then((value) => {
        answered = true;
        return value;
      });
    // The answer is there while the slot is still kept for the pace: a second request still waits.
    const second = a.run(() => Promise.resolve('second'));
    await expect(answer).resolves.toBe('answer');
    expect(answered).toBe(true);
    let secondDone = false;
    void second.then(() => (secondDone = true));
    await sleep(0);
    expect(secondDone).toBe(false);
    await second;
  });

  it("lets another instance's booking go before this instance's waiting paging", async () => {
    const { a, b } = twoInstances(0);
    const order: string[] = [];
    const step = (name: string) => async () => {
      await sleep(20);
      order.push(name);
    };
    const paging = (async () => {
      for (let page = 1; page <= 3; page++) await a.run(step(`page-${page}`), 'background');
    })();
    await sleep(5);
    // While page 1 is in flight, the other instance's booking asks: it goes next.
    await b.run(step('booking'), 'urgent');
    await paging;
    expect(order.indexOf('booking')).toBeLessThanOrEqual(1);
    expect(order.filter((name) => name.startsWith('page'))).toEqual(['page-1', 'page-2', 'page-3']);
  });

  it("lets this instance's bookings pass its paging while the shared slot is taken elsewhere", async () => {
    const shared = new InMemorySharedRequestSlots();
    const turns = new RequestTurns({ provider: 'fiken', name: 'fiken:test', localLimit: 1, paceMs: 0, shared });
    const elsewhere = (await shared.acquire('fiken:test', 'urgent')) as SlotHold;
    const order: string[] = [];
    const paging = turns.run(async () => order.push('page'), 'background');
    await sleep(10);
    const booking = turns.run(async () => order.push('booking'), 'urgent');
    await sleep(10);
    await elsewhere.release();
    await Promise.all([paging, booking]);
    expect(order).toEqual(['booking', 'page']);
  });

  it('turns a slot that cannot be had into a retryable provider error (nothing was sent)', async () => {
    class Unreachable extends SharedRequestSlots {
      acquire(): Promise<SlotHold | null> {
        return Promise.reject(new SharedSlotUnavailable('the database is unreachable'));
      }
    }
    const turns = new RequestTurns({
      provider: 'fiken',
      name: 'fiken:test',
      localLimit: 1,
      paceMs: 0,
      shared: new Unreachable(),
    });
    let sent = false;
    const failure = await turns.run(async () => (sent = true)).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(TransportError);
    expect(failure).toMatchObject({ reason: 'unavailable', outcomeUnknown: false, transient: true });
    expect(sent).toBe(false);
    // The line is not wedged: the next request is tried again.
    await expect(turns.run(async () => 'x')).rejects.toBeInstanceOf(TransportError);
  });

  it('without a shared slot keeps the limit and the pace within the process', async () => {
    const turns = new RequestTurns({ provider: 'fiken', name: 'fiken:test', localLimit: 1, paceMs: 30 });
    const starts: number[] = [];
    await Promise.all([1, 2, 3].map(() => turns.run(async () => starts.push(Date.now()))));
    expect(starts[1] - starts[0]).toBeGreaterThanOrEqual(29);
    expect(starts[2] - starts[1]).toBeGreaterThanOrEqual(29);
  });
});
