import type { Request, Response, NextFunction } from 'express';
import { DailyCheckRunner, ProposalExecutor } from '@app/application';
import { hostSandbox, startJobsApp, type HostedSandbox, type JobsApp } from './support/jobs-app';
import { isolatedTestDatabase, type IsolatedTestDatabase } from './support/test-database';

/** The test's pace between Fiken request starts (FIKEN_REQUEST_PACE_MS; 250 in production). */
const PACE_MS = 50;
const BOOKING_COMPANIES = 20;
const BOOKINGS_PER_COMPANY = 2;
const PURCHASE_CREATE = /\/companies\/([^/]+)\/purchases$/;

/** The `q`-quantile (0..1) of `values`, nearest rank. */
function quantile(values: number[], q: number): number {
  const sorted = [...values].sort((x, y) => x - y);
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)];
}

/**
 * Fiken allows one API request in flight per application: two service instances on one database
 * share the slot and the pace (PostgreSQL advisory locks), and a large company's daily-check
 * paging does not hold up other companies' bookings (docs/providers.md, "Fiken's one request").
 */
describe('Fiken: one request at a time across two instances, bookings before paging', () => {
  let hosted: HostedSandbox;
  let a: JobsApp;
  let b: JobsApp;
  let database: IsolatedTestDatabase;
  let big: string;
  let bigSlug: string;
  const bookers: string[] = [];
  /** Wall time (performance.now) at which each purchase was created, by company slug. */
  let created: Array<{ slug: string; at: number }> = [];
  /** Wall time at which each of the large company's reads answered. */
  let bigReads: number[] = [];

  beforeAll(async () => {
    database = await isolatedTestDatabase('fiken_slot');
    hosted = await hostSandbox({
      seed: 29,
      latencyMs: { fiken: 2 },
      // Every voucher of the large company inside the daily check's 30 days: 5 000 to page through.
      ledgerDays: 30,
      tripletex: { companies: 1, entriesPerCompany: 10, invoicesPerCompany: 1 },
      fiken: { companies: BOOKING_COMPANIES + 1, entriesPerCompany: 5_000, invoicesPerCompany: 600 },
    });
    hosted.setHook((req: Request, res: Response, next: NextFunction) => {
      const create = req.method === 'POST' ? PURCHASE_CREATE.exec(req.path) : null;
      if (create) {
        res.on('finish', () => {
          if (res.statusCode === 201) created.push({ slug: decodeURIComponent(create[1]), at: performance.now() });
        });
      } else if (req.method === 'GET' && bigSlug !== undefined && req.path.includes(`/companies/${bigSlug}/`)) {
        res.on('finish', () => bigReads.push(performance.now()));
      }
      next();
    });
    const jobsEnv = { EXECUTOR_CONCURRENCY: '4', EXECUTOR_BATCH_SIZE: '10' };
    const env = { FIKEN_REQUEST_PACE_MS: String(PACE_MS), PROVIDER_TIMEOUT_MS: '10000' };
    a = await startJobsApp({ hosted, jobsEnv, env, databaseUrl: database.url });
    b = await startJobsApp({ hosted, jobsEnv, env, databaseUrl: database.url, dataDir: a.dataDir, clock: a.clock });
    big = await a.newCompany('fk-large');
    await a.connect(big, 'fiken', 0);
    bigSlug = hosted.sandbox.control.for('fiken').company(0).slug;
    for (let i = 1; i <= BOOKING_COMPANIES; i++) {
      const company = await a.newCompany('fk-book');
      await a.connect(company, 'fiken', i);
      bookers.push(company);
    }
  }, 120_000);

  afterAll(async () => {
    await b?.close();
    await a?.close();
    await hosted?.close();
    await database?.dispose();
  });

  /** Approves BOOKINGS_PER_COMPANY proposals of every booking company (half with a receipt). */
  async function approveBookings(): Promise<string[]> {
    const ids: string[] = [];
    for (const [index, company] of bookers.entries()) {
      for (let n = 0; n < BOOKINGS_PER_COMPANY; n++) {
        const proposal = await (n % 2 === 0 ? a : b).approvedProposal(company, {
          amount: `${300 + index * 10 + n}.00`,
          receipt: (index + n) % 2 === 0,
        });
        ids.push(proposal.id);
      }
    }
    return ids;
  }

  /** Both instances execute every due proposal; each booking's time from the start to its purchase, ms. */
  async function executeAll(ids: string[]): Promise<number[]> {
    created = [];
    const start = performance.now();
    const [first, second] = await Promise.all([
      a.app.get(ProposalExecutor).drain(),
      b.app.get(ProposalExecutor).drain(),
    ]);
    expect(first.executed + second.executed).toBe(ids.length);
    expect(first.executed).toBeGreaterThan(0);
    expect(second.executed).toBeGreaterThan(0);
    const [row] = await a.query<{ executed: string }>(
      `SELECT count(*) AS executed FROM proposals WHERE id = ANY($1) AND status = 'EXECUTED'`,
      [ids],
    );
    expect(Number(row.executed)).toBe(ids.length);
    // One purchase per booking, none twice.
    expect(created).toHaveLength(ids.length);
    return created.map((c) => c.at - start);
  }

  let unloadedP95: number;

  it(`two instances booking ${BOOKING_COMPANIES * BOOKINGS_PER_COMPANY} purchases never have two Fiken requests in flight, and keep the pace`, async () => {
    const before = hosted.sandbox.control.for('fiken').traffic();
    const ids = await approveBookings();
    const times = await executeAll(ids);
    unloadedP95 = quantile(times, 0.95);

    const traffic = hosted.sandbox.control.for('fiken').traffic();
    const requests = traffic.requests - before.requests;
    expect(requests).toBeGreaterThanOrEqual(ids.length);
    // The sandbox answers a second request in flight with 429: it never saw one.
    expect(traffic.maxInFlight).toBe(1);
    expect(traffic.concurrencyRejections).toBe(0);
    // Starts are a pace apart where the instances send them. The sandbox sees them after the
    // network and this process's event loop, so one gap can shrink by however late the request
    // before it arrived (tens of ms on a loaded machine); over ten gaps that delay counts once. An
    // unpaced client would start ten requests in a few milliseconds each.
    expect(traffic.minTenGapsMs).not.toBeNull();
    expect(traffic.minTenGapsMs as number).toBeGreaterThanOrEqual(10 * PACE_MS - 250);
    // Over the whole run the rate is at most the pace's (a late first or early last arrival can
    // shorten the span by at most one such delay).
    const span = (traffic.lastStartMs as number) - (traffic.firstStartMs as number);
    expect(span).toBeGreaterThanOrEqual((traffic.requests - 1) * PACE_MS - 1_000);
  });

  it('a large company’s daily check (5 000 vouchers) does not delay 20 other companies’ bookings: p95 within 2× unloaded', async () => {
    expect(unloadedP95).toBeDefined();
    const ids = await approveBookings();
    bigReads = [];
    const day = new Date(a.clock.now()).toISOString().slice(0, 10);
    let checkDoneAt = Number.POSITIVE_INFINITY;
    const check = a.app
      .get(DailyCheckRunner)
      .runDay(day, { companyId: big })
      .then((summary) => {
        checkDoneAt = performance.now();
        return summary;
      });
    // The check is paging before the bookings are released.
    while (bigReads.length < 3) await new Promise((resolve) => setTimeout(resolve, 20));

    const bookingsStart = performance.now();
    const times = await executeAll(ids);
    const bookingsEnd = bookingsStart + Math.max(...times);
    const loadedP95 = quantile(times, 0.95);
    const readsDuringBookings = bigReads.filter((at) => at > bookingsStart && at < bookingsEnd).length;

    const summary = await check;
    expect(summary.succeeded).toBe(1);
    // The check was under way the whole time the bookings ran, and still got requests in.
    expect(checkDoneAt).toBeGreaterThan(bookingsEnd);
    const traffic = hosted.sandbox.control.for('fiken').traffic();
    expect(traffic.maxInFlight).toBe(1);
    expect(traffic.concurrencyRejections).toBe(0);
    expect(traffic.minTenGapsMs as number).toBeGreaterThanOrEqual(10 * PACE_MS - 250);
    // Paging got in only where no booking wanted the slot (between the executors' batches, at the
    // end): a few pages, not one between every two booking requests as a first-come line would give.
    expect(readsDuringBookings).toBeLessThanOrEqual(ids.length / 2);
    // Both figures come from this run on this machine: a ratio, not a time.
    expect(loadedP95).toBeLessThanOrEqual(2 * unloadedP95);
    process.stdout.write(
      `fiken fairness: p95 unloaded ${unloadedP95.toFixed(0)} ms, with the daily check ${loadedP95.toFixed(0)} ms ` +
        `(${bigReads.length} reads of the large company, ${readsDuringBookings} while the bookings ran); shortest gap between starts ` +
        `${(traffic.minStartGapMs as number).toFixed(1)} ms\n`,
    );
  });
});
