import { ProposalExecutor } from '@app/application';
import { hostSandbox, startJobsApp, type HostedSandbox, type JobsApp } from './support/jobs-app';
import { isolatedTestDatabase, type IsolatedTestDatabase } from './support/test-database';
import { readableReference } from '@app/providers';

const PROPOSALS = 80;

/** Two instances claim from one queue (SKIP LOCKED): each proposal is executed once. */
describe('two executor instances on PostgreSQL', () => {
  let hosted: HostedSandbox;
  let a: JobsApp;
  let b: JobsApp;
  let database: IsolatedTestDatabase;

  beforeAll(async () => {
    hosted = await hostSandbox({ seed: 17, companies: 2, entriesPerCompany: 20, invoicesPerCompany: 2, latencyMs: 5 });
    const jobsEnv = { EXECUTOR_CONCURRENCY: '4', EXECUTOR_BATCH_SIZE: '5' };
    // The executors claim every company's due proposals: this suite gets a database of its own.
    database = await isolatedTestDatabase('instances');
    a = await startJobsApp({ hosted, jobsEnv, databaseUrl: database.url });
    b = await startJobsApp({ hosted, jobsEnv, databaseUrl: database.url, dataDir: a.dataDir });
  });

  afterAll(async () => {
    await b?.close();
    await a?.close();
    await hosted?.close();
    await database?.dispose();
  });

  it(`books each of ${PROPOSALS} proposals exactly once while both claim at the same time`, async () => {
    const tx = await a.newCompany('two-tx');
    const fk = await a.newCompany('two-fk');
    await a.connect(tx, 'tripletex', 1);
    await a.connect(fk, 'fiken', 1);
    const proposals: { id: string; provider: 'tripletex' | 'fiken' }[] = [];
    for (let i = 0; i < PROPOSALS; i++) {
      const provider = i % 2 === 0 ? 'tripletex' : 'fiken';
      const proposal = await a.approvedProposal(provider === 'tripletex' ? tx : fk, {
        amount: `${200 + i}.00`,
        receipt: i % 4 === 0,
      });
      proposals.push({ id: proposal.id, provider });
    }

    // Fiken refuses concurrent requests of one company from two processes (429): those retry later.
    const executed = [0, 0];
    for (let round = 0; round < 10 && executed[0] + executed[1] < PROPOSALS; round++) {
      const [first, second] = await Promise.all([
        a.app.get(ProposalExecutor).drain(),
        b.app.get(ProposalExecutor).drain(),
      ]);
      executed[0] += first.executed;
      executed[1] += second.executed;
      a.clock.advance(10 * 60_000);
      b.clock.advance(10 * 60_000);
    }

    expect(executed[0] + executed[1]).toBe(PROPOSALS);
    expect(executed[0]).toBeGreaterThan(0);
    expect(executed[1]).toBeGreaterThan(0);
    // Fiken's purchases carry the readable form of the reference as their identifier.
    const counts = proposals.map((p) => {
      const marker = p.provider === 'fiken' ? readableReference(p.id) : p.id;
      return hosted.sandbox.control
        .for(p.provider)
        .bookings(1)
        .filter((booking) => JSON.stringify(booking).includes(marker)).length;
    });
    expect(counts.filter((n) => n !== 1)).toEqual([]);
    const [row] = await a.query<{ executed: string }>(
      `SELECT count(*) AS executed FROM proposals WHERE id = ANY($1) AND status = 'EXECUTED'`,
      [proposals.map((p) => p.id)],
    );
    expect(Number(row.executed)).toBe(PROPOSALS);
  });

  it.each(['tripletex', 'fiken'] as const)(
    'books one of two twin supplier invoices approved together and executed by both at once (%s); the other is refused naming it',
    async (provider) => {
      const company = await a.newCompany(`twins-${provider}`);
      await a.connect(company, provider, 1);
      const invoice = { organizationNumber: '923609016', invoiceNumber: `T-${provider}` };
      const first = await a.approvedProposal(company, { amount: '500.00', supplierInvoice: invoice, receipt: false });
      const twin = await a.approvedProposal(company, {
        amount: '480.00',
        supplierInvoice: invoice,
        receipt: false,
      });

      // Until the loser's refusal is final: it waits while the winner is being booked (Fiken may answer 429 meanwhile).
      const settled = async () =>
        (
          await a.query<{ n: string }>(
            `SELECT count(*) AS n FROM proposal_executions WHERE proposal_id = ANY($1) AND state IN ('executed', 'failed')`,
            [[first.id, twin.id]],
          )
        )[0].n === '2';
      for (let round = 0; round < 15 && !(await settled()); round++) {
        await Promise.all([a.app.get(ProposalExecutor).drain(), b.app.get(ProposalExecutor).drain()]);
        a.clock.advance(10 * 60_000);
        b.clock.advance(10 * 60_000);
      }

      const booked = [first, twin].filter((p) => {
        const marker = provider === 'fiken' ? readableReference(p.id) : p.id;
        return hosted.sandbox.control
          .for(provider)
          .bookings(1)
          .some((booking: unknown) => JSON.stringify(booking).includes(marker));
      });
      expect(booked).toHaveLength(1);
      const [winner] = booked;
      const loser = winner.id === first.id ? twin : first;
      const rows = await a.query<{ id: string; status: string; last_execution_error: string | null }>(
        'SELECT id, status, last_execution_error FROM proposals WHERE id = ANY($1)',
        [[first.id, twin.id]],
      );
      const byId = new Map(rows.map((row) => [row.id, row]));
      expect(byId.get(winner.id)?.status).toBe('EXECUTED');
      expect(byId.get(loser.id)).toMatchObject({ status: 'APPROVED' });
      expect(byId.get(loser.id)?.last_execution_error).toMatch(
        new RegExp(`already booked as .+ by proposal ${winner.id}: not booked a second time`),
      );
      const failures = await a.query<{ data: { message: string } }>(
        `SELECT data FROM events WHERE proposal_id = $1 AND type = 'ExecutionFailed' ORDER BY sequence`,
        [loser.id],
      );
      expect(failures.at(-1)?.data.message).toMatch(
        new RegExp(`is already booked as .+ by proposal ${winner.id}: not booked a second time`),
      );
    },
  );
});
