import { randomUUID } from 'node:crypto';
import { SharedSlotUnavailable, type SharedRequestSlots, type SlotHold } from '@app/providers';

export interface SharedRequestSlotsSubjects {
  /** Two participants on one store (two service instances); an in-memory store may be the same object twice. */
  readonly a: SharedRequestSlots;
  readonly b: SharedRequestSlots;
}

export interface SharedRequestSlotsContractOptions {
  /** Participants whose urgent wait is bounded by `waitMs`. */
  readonly withWait: (waitMs: number) => SharedRequestSlotsSubjects | Promise<SharedRequestSlotsSubjects>;
  /** After each test (close what `withWait` made). */
  readonly teardown?: () => Promise<void>;
}

/** Whether `promise` has settled after the event loop had `ms` to settle it. */
async function settledWithin(promise: Promise<unknown>, ms: number): Promise<boolean> {
  let settled = false;
  promise.then(
    () => (settled = true),
    () => (settled = true),
  );
  await new Promise((resolve) => setTimeout(resolve, ms));
  return settled;
}

/** The behaviour every `SharedRequestSlots` adapter shares (docs/providers.md, "Fiken's one request"). */
export function describeSharedRequestSlotsContract(
  name: string,
  makeSubjects: () => SharedRequestSlotsSubjects | Promise<SharedRequestSlotsSubjects>,
  options: SharedRequestSlotsContractOptions,
): void {
  describe(`SharedRequestSlots contract: ${name}`, () => {
    let a: SharedRequestSlots;
    let b: SharedRequestSlots;
    let slot: string;

    beforeEach(async () => {
      ({ a, b } = await makeSubjects());
      slot = `test:${randomUUID()}`;
    });

    afterEach(async () => {
      await options.teardown?.();
    });

    it('an urgent hold keeps the other instance out until it is released', async () => {
      const first = (await a.acquire(slot, 'urgent')) as SlotHold;
      expect(first).not.toBeNull();
      const second = b.acquire(slot, 'urgent');
      expect(await settledWithin(second, 150)).toBe(false);
      await first.release();
      const hold = (await second) as SlotHold;
      expect(hold).not.toBeNull();
      await hold.release();
    });

    it('two holds of one instance exclude each other too', async () => {
      const first = (await a.acquire(slot, 'urgent')) as SlotHold;
      const second = a.acquire(slot, 'urgent');
      expect(await settledWithin(second, 150)).toBe(false);
      await first.release();
      await ((await second) as SlotHold).release();
    });

    it('urgent requests get the slot in the order they asked', async () => {
      const order: string[] = [];
      const first = (await a.acquire(slot, 'urgent')) as SlotHold;
      const fromB = b.acquire(slot, 'urgent').then(async (hold) => {
        order.push('b');
        await hold?.release();
      });
      await settledWithin(fromB, 300);
      const fromA = a.acquire(slot, 'urgent').then(async (hold) => {
        order.push('a');
        await hold?.release();
      });
      await first.release();
      await Promise.all([fromB, fromA]);
      expect(order).toEqual(['b', 'a']);
    });

    it('background work is refused at once while an urgent request holds the slot, and gets it when free', async () => {
      const urgent = (await a.acquire(slot, 'urgent')) as SlotHold;
      expect(await b.acquire(slot, 'background')).toBeNull();
      await urgent.release();
      const background = await b.acquire(slot, 'background');
      expect(background).not.toBeNull();
      expect(await a.acquire(slot, 'background')).toBeNull();
      await background?.release();
    });

    it('an urgent request waits for background work to finish its one request, then goes first', async () => {
      const background = (await b.acquire(slot, 'background')) as SlotHold;
      const urgent = a.acquire(slot, 'urgent');
      expect(await settledWithin(urgent, 150)).toBe(false);
      await background.release();
      const hold = (await urgent) as SlotHold;
      // While the booking holds (or waits for) the slot, paging stays out.
      expect(await b.acquire(slot, 'background')).toBeNull();
      await hold.release();
    });

    it('an urgent wait is bounded: past it, SharedSlotUnavailable, and the slot still works afterwards', async () => {
      const bounded = await options.withWait(300);
      const first = (await bounded.a.acquire(slot, 'urgent')) as SlotHold;
      await expect(bounded.b.acquire(slot, 'urgent')).rejects.toBeInstanceOf(SharedSlotUnavailable);
      await first.release();
      const hold = await bounded.b.acquire(slot, 'urgent');
      expect(hold).not.toBeNull();
      await hold?.release();
    });

    it('releasing twice gives the slot back once', async () => {
      const first = (await a.acquire(slot, 'urgent')) as SlotHold;
      await first.release();
      const second = (await b.acquire(slot, 'urgent')) as SlotHold;
      await first.release();
      expect(await a.acquire(slot, 'background')).toBeNull();
      await second.release();
    });

    it('slots of different names are independent', async () => {
      const one = (await a.acquire(slot, 'urgent')) as SlotHold;
      const other = await b.acquire(`${slot}:other`, 'urgent');
      expect(other).not.toBeNull();
      await other?.release();
      await one.release();
    });
  });
}
