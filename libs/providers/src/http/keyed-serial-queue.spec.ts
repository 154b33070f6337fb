import { KeyedSerialQueue } from './keyed-serial-queue';
import { sleep } from './sleep';

describe('KeyedSerialQueue', () => {
  it('runs the tasks of one key one at a time, in arrival order', async () => {
    const queue = new KeyedSerialQueue();
    const order: number[] = [];
    let running = 0;
    let maxRunning = 0;
    await Promise.all(
      [30, 5, 15, 0].map((delay, i) =>
        queue.run('acme', async () => {
          running++;
          maxRunning = Math.max(maxRunning, running);
          await sleep(delay);
          order.push(i);
          running--;
        }),
      ),
    );
    expect(order).toEqual([0, 1, 2, 3]);
    expect(maxRunning).toBe(1);
    expect(queue.activeKeys).toBe(0);
  });

  it('lets different keys run side by side and survives a failing task', async () => {
    const queue = new KeyedSerialQueue();
    let running = 0;
    let maxRunning = 0;
    const task = async () => {
      running++;
      maxRunning = Math.max(maxRunning, running);
      await sleep(10);
      running--;
    };
    const failing = queue.run('acme', async () => {
      throw new Error('boom');
    });
    await expect(failing).rejects.toThrow('boom');
    await Promise.all([queue.run('acme', task), queue.run('globex', task)]);
    expect(maxRunning).toBe(2);
  });
});
