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
