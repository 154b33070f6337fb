import { ProposalExecutor } from '@app/application';
import { hostSandbox, startJobsApp, type HostedSandbox, type JobsApp } from './support/jobs-app';
import { isolatedTestDatabase, type IsolatedTestDatabase } from './support/test-database';

/** The sandbox's Tripletex rate window: requests per employee token (one company), and its length. */
const WINDOW = { limit: 20, windowSeconds: 10 };

describe("one company's exhausted rate window does not hold up another's executions", () => {
  let hosted: HostedSandbox;
  let t: JobsApp;
  let executor: ProposalExecutor;
  let database: IsolatedTestDatabase;

  beforeAll(async () => {
    hosted = await hostSandbox({ seed: 17, companies: 2, entriesPerCompany: 5, tripletex: { rateLimit: WINDOW } });
    database = await isolatedTestDatabase('fair');
    t = await startJobsApp({ hosted, databaseUrl: database.url, env: { PROVIDER_RETRIES: '1' } });
    executor = t.app.get(ProposalExecutor);
  });

  afterAll(async () => {
    await t?.close();
    await hosted?.close();
    await database?.dispose();
  });

  async function until(condition: () => Promise<boolean>, timeoutMs: number): Promise<boolean> {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      if (await condition()) return true;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    return condition();
  }

  const statusOf = async (company: string, proposalId: string) =>
    (
      await t.query<{ status: string }>('SELECT status FROM proposals WHERE company_id = $1 AND id = $2', [
        company,
        proposalId,
      ])
    )[0].status;

  /** The vouchers the sandbox holds for a proposal (its id is their reference). */
  const vouchersOf = (index: number, proposalId: string) =>
    hosted.sandbox.control
      .for('tripletex')
      .bookings(index)
      .filter((voucher) => JSON.stringify(voucher).includes(proposalId));

  it('executes B while A waits for its window, defers A without counting an attempt, and books each of A once when it reopens', async () => {
    const a = await t.newCompany('busy');
    const b = await t.newCompany('quiet');
    await t.connect(a, 'tripletex', 0);
    await t.connect(b, 'tripletex', 1);
    const many = [];
    for (let i = 0; i < 8; i++) many.push(await t.approvedProposal(a, { amount: `${100 + i}.00` }));
    const one = await t.approvedProposal(b, { amount: '99.00' });

    const started = Date.now();
    const round = executor.runOnce();
    // A's window (20 requests, about five a booking) closes after a few of A's bookings, for the
    // rest of its 10 s: B's booking must not wait for it.
    expect(await until(async () => (await statusOf(b, one.id)) === 'EXECUTED', 5_000)).toBe(true);
    expect(Date.now() - started).toBeLessThan(WINDOW.windowSeconds * 1000 - 2_000);
    await round;

    const executions = await t.query<{ proposal_id: string; state: string; attempts: number; last_error: string }>(
      `SELECT proposal_id, state, attempts, last_error FROM proposal_executions WHERE company_id = $1`,
      [a],
    );
    const deferred = executions.filter((row) => row.state === 'retry_wait');
    expect(deferred.length).toBeGreaterThan(0);
    // Deferred before anything was sent: not an attempt, no ExecutionFailed, no booking.
    for (const row of deferred) {
      expect(Number(row.attempts)).toBe(0);
      expect(row.last_error).toMatch(/rate window/);
      expect(vouchersOf(0, row.proposal_id)).toHaveLength(0);
    }
    const failures = await t.query(`SELECT 1 FROM events WHERE company_id = $1 AND type = 'ExecutionFailed'`, [a]);
    expect(failures).toEqual([]);

    // Each time the window reopens, the deferred executions are due again; each is booked once.
    for (let window = 0; window < 4; window++) {
      const open = await t.query(`SELECT 1 FROM proposal_executions WHERE company_id = $1 AND state <> 'executed'`, [
        a,
      ]);
      if (open.length === 0) break;
      await new Promise((resolve) => setTimeout(resolve, WINDOW.windowSeconds * 1000));
      t.clock.advance((WINDOW.windowSeconds + 1) * 1000);
      await executor.drain();
    }
    for (const proposal of many) {
      expect(await statusOf(a, proposal.id)).toBe('EXECUTED');
      expect(vouchersOf(0, proposal.id)).toHaveLength(1);
    }
    expect(vouchersOf(1, one.id)).toHaveLength(1);
  }, 60_000);
});
