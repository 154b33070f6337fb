import { RequestSlots } from './request-slots';
import { sleep } from './sleep';

describe('RequestSlots', () => {
  async function runAll(slots: RequestSlots, delays: number[]) {
    const order: number[] = [];
    let running = 0;
    let maxRunning = 0;
    await Promise.all(
      delays.map((delay, i) =>
        slots.run(async () => {
          running++;
          maxRunning = Math.max(maxRunning, running);
          await sleep(delay);
          order.push(i);
          running--;
        }),
      ),
    );
    return { order, maxRunning };
  }

  it('runs one task at a time, in arrival order, with a limit of 1', async () => {
    const { order, maxRunning } = await runAll(new RequestSlots(1), [30, 5, 15, 0]);
    expect(order).toEqual([0, 1, 2, 3]);
    expect(maxRunning).toBe(1);
  });

  it('starts every waiting urgent task (a booking) before the waiting background ones (paging)', async () => {
    const slots = new RequestSlots(1);
    const order: string[] = [];
    const task = (name: string) => async () => {
      await sleep(5);
      order.push(name);
    };
    await Promise.all([
      slots.run(task('page-1'), 'background'),
      slots.run(task('page-2'), 'background'),
      slots.run(task('page-3'), 'background'),
      slots.run(task('booking-a')),
      slots.run(task('booking-b'), 'urgent'),
    ]);
    // The page in flight finishes; the bookings that came later go before the pages still waiting.
    expect(order).toEqual(['page-1', 'booking-a', 'booking-b', 'page-2', 'page-3']);
  });

  it('runs up to the limit side by side', async () => {
    const { maxRunning } = await runAll(new RequestSlots(3), [20, 20, 20, 20, 20, 20]);
    expect(maxRunning).toBe(3);
  });

  it('frees the slot of a failing task', async () => {
    const slots = new RequestSlots(1);
    await expect(slots.run(() => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    await expect(slots.run(() => Promise.resolve('next'))).resolves.toBe('next');
    expect(slots.queued).toBe(0);
  });

  it('refuses a limit below 1', () => {
    expect(() => new RequestSlots(0)).toThrow(RangeError);
  });
});
