import { HttpMetrics } from './http-metrics';

async function busySeconds(metrics: HttpMetrics): Promise<number> {
  const metric = await metrics.registry.getSingleMetric('nodejs_eventloop_busy_seconds_total')!.get();
  return metric.values[0].value;
}

describe('HttpMetrics', () => {
  it('counts the seconds the event loop was busy, so that its rate is the utilization', async () => {
    const metrics = new HttpMetrics();
    const before = await busySeconds(metrics);
    const until = Date.now() + 60;
    while (Date.now() < until) {
      // the event loop is busy here, as under a saturating load
    }
    const afterBusy = await busySeconds(metrics);
    expect(afterBusy - before).toBeGreaterThanOrEqual(0.055);

    await new Promise((resolve) => setTimeout(resolve, 200));
    const afterIdle = await busySeconds(metrics);
    // Waiting for a timer is idle time: the counter moves by far less than the wait (a scrape is a
    // few ms of work; on a loaded machine the test process's own housekeeping adds some).
    expect(afterIdle - afterBusy).toBeGreaterThanOrEqual(0);
    expect(afterIdle - afterBusy).toBeLessThan(0.1);
  });

  it('exposes the counter in the scrape', async () => {
    const text = await new HttpMetrics().registry.metrics();
    expect(text).toMatch(/# TYPE nodejs_eventloop_busy_seconds_total counter\nnodejs_eventloop_busy_seconds_total \d/);
  });
});
