import { ProposalExecutor } from '@app/application';
import { readableReference } from '@app/providers';
import { receiptPdf } from '@app/testing';
import { ACCOUNTANT, hostSandbox, startJobsApp, type HostedSandbox, type JobsApp } from './support/jobs-app';
import { isolatedTestDatabase, type IsolatedTestDatabase } from './support/test-database';

/** Executor settings of these tests: quick retries, three transient failures before ExecutionFailed. */
const JOBS_ENV = {
  EXECUTOR_RETRY_BASE_MS: '1000',
  EXECUTOR_RETRY_MAX_MS: '4000',
  EXECUTOR_MAX_TRANSIENT_ATTEMPTS: '3',
  EXECUTOR_FAILED_RETRY_MS: '60000',
};

describe('executing approved proposals (docs/api.md §4.4)', () => {
  let hosted: HostedSandbox;
  let t: JobsApp;
  let executor: ProposalExecutor;
  let database: IsolatedTestDatabase;

  beforeAll(async () => {
    hosted = await hostSandbox({ seed: 11, companies: 4, entriesPerCompany: 40, invoicesPerCompany: 5 });
    // The executor claims every company's due proposals: this suite gets a database of its own.
    database = await isolatedTestDatabase('exec');
    t = await startJobsApp({
      hosted,
      databaseUrl: database.url,
      jobsEnv: JOBS_ENV,
      env: { PROVIDER_RETRIES: '0', PROVIDER_TIMEOUT_MS: '2000' },
    });
    executor = t.app.get(ProposalExecutor);
  });

  afterAll(async () => {
    await t?.close();
    await hosted?.close();
    await database?.dispose();
  });

  afterEach(() => hosted.sandbox.control.clearFaults());

  async function events(
    company: string,
    proposalId: string,
  ): Promise<
    { type: string; status: string; provider: string | null; api_calls: unknown[]; data: Record<string, unknown> }[]
  > {
    return t.query(
      `SELECT type, status, provider, api_calls, data FROM events WHERE company_id = $1 AND proposal_id = $2 ORDER BY sequence`,
      [company, proposalId],
    );
  }

  async function statusOf(company: string, proposalId: string): Promise<string> {
    const [row] = await t.query<{ status: string }>('SELECT status FROM proposals WHERE company_id = $1 AND id = $2', [
      company,
      proposalId,
    ]);
    return row.status;
  }

  it('books a Tripletex voucher with the receipt, once, and stores Executed with the booking id and api_calls', async () => {
    const company = await t.newCompany('tx');
    await t.connect(company, 'tripletex', 1);
    const proposal = await t.approvedProposal(company, { amount: '135.00' });

    await executor.drain();
    await executor.drain();

    const vouchers = hosted.sandbox.control
      .for('tripletex')
      .bookings(1)
      .filter((v) => JSON.stringify(v).includes(proposal.id));
    expect(vouchers).toHaveLength(1);
    expect(vouchers[0].attachment).toBeTruthy();
    expect(await statusOf(company, proposal.id)).toBe('EXECUTED');
    const executed = (await events(company, proposal.id)).at(-1)!;
    expect(executed).toMatchObject({
      type: 'Executed',
      status: 'EXECUTED',
      provider: 'tripletex',
      data: { bookingId: expect.any(String) },
    });
    expect(executed.api_calls).toEqual(
      expect.arrayContaining([expect.objectContaining({ method: 'POST', path: '/ledger/voucher', status: 201 })]),
    );
  });

  it('books a Fiken cash purchase on the payment account, once', async () => {
    const company = await t.newCompany('fk');
    await t.connect(company, 'fiken', 1);
    const proposal = await t.approvedProposal(company);

    await executor.drain();

    const purchases = hosted.sandbox.control
      .for('fiken')
      .bookings(1)
      .filter((p) => p.identifier === readableReference(proposal.id));
    expect(purchases).toHaveLength(1);
    expect(JSON.stringify(purchases[0])).toContain('1920');
    expect(await statusOf(company, proposal.id)).toBe('EXECUTED');
  });

  it('retries a provider outage with backoff, stores ExecutionFailed after the attempts, and books once it recovers', async () => {
    const company = await t.newCompany('out');
    await t.connect(company, 'tripletex', 2);
    const proposal = await t.approvedProposal(company, { receipt: false });
    const outage = hosted.sandbox.control.addFault({ provider: 'tripletex', errorRate: 1, errorStatus: 503 });

    expect(await executor.runOnce()).toEqual(['retry']);
    expect(await executor.runOnce()).toEqual([]); // backing off
    t.clock.advance(1_000);
    expect(await executor.runOnce()).toEqual(['retry']);
    t.clock.advance(2_000);
    expect(await executor.runOnce()).toEqual(['retry']); // third failure: reported

    const afterOutage = await events(company, proposal.id);
    expect(afterOutage.map((e) => e.type)).toEqual(['Proposed', 'Approved', 'ExecutionFailed']);
    expect(await statusOf(company, proposal.id)).toBe('APPROVED');
    const [notice] = await t.query<{ kind: string; target: string }>(
      `SELECT kind, target FROM notification_outbox WHERE company_id = $1 AND kind = 'execution_failed'`,
      [company],
    );
    expect(notice).toEqual({ kind: 'execution_failed', target: 'review' });

    hosted.sandbox.control.removeFault(outage.id);
    t.clock.advance(60_000);
    expect(await executor.runOnce()).toEqual(['executed']);
    expect(await statusOf(company, proposal.id)).toBe('EXECUTED');
    expect(
      hosted.sandbox.control
        .for('tripletex')
        .bookings(2)
        .filter((v) => JSON.stringify(v).includes(proposal.id)),
    ).toHaveLength(1);
  });

  it.each([
    { provider: 'tripletex' as const, attachPath: '/attachment', searchPath: '/ledger/voucher' },
    { provider: 'fiken' as const, attachPath: '/attachments', searchPath: '/purchases' },
  ])(
    '$provider: after a failed receipt upload, attaches to the booking it holds although the search misses it: one booking, receipt attached',
    async ({ provider, attachPath, searchPath }) => {
      const company = await t.newCompany(`att-${provider}`);
      await t.connect(company, provider, 1);
      const proposal = await t.approvedProposal(company, { amount: '212.00' });
      const mine = (): { attachments: number }[] =>
        provider === 'tripletex'
          ? hosted.sandbox.control
              .for('tripletex')
              .bookings(1)
              .filter((v) => JSON.stringify(v).includes(proposal.id))
              .map((v) => ({ attachments: v.attachment ? 1 : 0 }))
          : hosted.sandbox.control
              .for('fiken')
              .bookings(1)
              .filter((p) => p.identifier === readableReference(proposal.id))
              .map((p) => ({ attachments: p.purchaseAttachments.length }));
      hosted.sandbox.control.addFault({ provider, method: 'POST', path: attachPath, errorNext: 1, errorStatus: 503 });

      expect(await executor.runOnce()).toEqual(['retry']);
      expect(mine()).toHaveLength(1);
      // The search by reference misses the booking on the next attempt (an index lagging its commit).
      hosted.sandbox.control.addFault({ provider, path: searchPath, hideResults: { next: 10 } });
      t.clock.advance(1_000);
      expect(await executor.runOnce()).toEqual(['executed']);

      expect(mine()).toEqual([{ attachments: 1 }]);
      expect(await statusOf(company, proposal.id)).toBe('EXECUTED');
    },
  );

  it('stores a permanent failure with the provider message, tells the review channel, and leaves the proposal rejectable', async () => {
    const company = await t.newCompany('perm');
    await t.connect(company, 'tripletex', 3);
    const proposal = await t.approvedProposal(company, { accountCode: '6999' });

    expect(await executor.runOnce()).toEqual(['failed']);
    const failed = (await events(company, proposal.id)).at(-1)!;
    expect(failed).toMatchObject({
      type: 'ExecutionFailed',
      status: 'APPROVED',
      data: { message: expect.stringContaining('6999') },
    });
    t.clock.advance(3_600_000);
    expect(await executor.runOnce()).toEqual([]); // no automatic retry of a permanent failure

    const reject = await t.http
      .post(`/v1/review/${proposal.id}/reject`)
      .set('Authorization', `Bearer ${t.token(company, ACCOUNTANT)}`)
      .send({ reason: 'no such account' });
    expect(reject.status).toBe(200);
    expect(await statusOf(company, proposal.id)).toBe('REJECTED');
  });

  it('refuses a reject once the execution is in flight: booked, and the reject gets 409 invalid_transition', async () => {
    const company = await t.newCompany('race');
    await t.connect(company, 'fiken', 2);
    const proposal = await t.approvedProposal(company);
    let reject: Promise<{ status: number; body: { code?: string } }> | null = null;
    hosted.setHook((req, _res, next) => {
      if (req.method === 'POST' && req.path.endsWith('/purchases') && reject === null) {
        reject = Promise.resolve(
          t.http
            .post(`/v1/review/${proposal.id}/reject`)
            .set('Authorization', `Bearer ${t.token(company, ACCOUNTANT)}`)
            .send({ reason: 'changed my mind' }),
        );
        void reject.then(() => next());
        return;
      }
      next();
    });
    try {
      expect(await executor.runOnce()).toEqual(['executed']);
    } finally {
      hosted.setHook(null);
    }
    const refused = await reject!;
    expect({ status: refused.status, code: refused.body.code }).toEqual({ status: 409, code: 'invalid_transition' });
    expect(await statusOf(company, proposal.id)).toBe('EXECUTED');
    expect(
      hosted.sandbox.control
        .for('fiken')
        .bookings(2)
        .filter((p) => p.identifier === readableReference(proposal.id)),
    ).toHaveLength(1);
  });

  it('never books a proposal rejected before the executor claims it', async () => {
    const company = await t.newCompany('rej');
    await t.connect(company, 'tripletex', 1);
    const proposal = await t.approvedProposal(company);
    const reject = await t.http
      .post(`/v1/review/${proposal.id}/reject`)
      .set('Authorization', `Bearer ${t.token(company, ACCOUNTANT)}`)
      .send({ reason: 'duplicate' });
    expect(reject.status).toBe(200);
    expect(await executor.drain()).toMatchObject({ executed: 0 });
    expect(
      hosted.sandbox.control
        .for('tripletex')
        .bookings(1)
        .filter((v) => JSON.stringify(v).includes(proposal.id)),
    ).toHaveLength(0);
  });

  it('adds an executed auto-approval to its pattern as one more amount, and never a rejected one', async () => {
    const company = await t.newCompany('obs');
    await t.connect(company, 'tripletex', 1);
    const as = (claims = {}) => `Bearer ${t.token(company, claims)}`;
    const admin = as();
    const employee = as({ sub: 'nora@demo.no', role: 'employee', permissions: ['solve', 'query', 'facts'] });
    const accountant = as(ACCOUNTANT);
    const body = (amount: string) => ({
      kind: 'expense',
      merchant: 'Kontorrekvisita AS',
      amount,
      currency: 'NOK',
      date: t.clock.now().toISOString().slice(0, 10),
      accountCode: '6800',
      vatRate: '25',
      thread: { channel: 'slack', threadId: 'C01/1700000000.000100' },
    });
    const rule = await t.http
      .post('/v1/patterns')
      .set('Authorization', accountant)
      .send({ merchantName: 'Kontorrekvisita AS', accountCode: '6800', vatRate: '25' });
    await t.http.put('/v1/config/company').set('Authorization', admin).send({ executionDelayMinutes: 0 });

    const kept = await t.http.post('/v1/proposals').set('Authorization', employee).send(body('250.00'));
    expect(kept.body.status).toBe('APPROVED');
    expect(await executor.drain()).toMatchObject({ executed: 1 });

    await t.http.put('/v1/config/company').set('Authorization', admin).send({ executionDelayMinutes: 15 });
    const rejected = await t.http.post('/v1/proposals').set('Authorization', employee).send(body('900.00'));
    expect(rejected.body.status).toBe('APPROVED');
    const reject = await t.http
      .post(`/v1/review/${rejected.body.id}/reject`)
      .set('Authorization', accountant)
      .send({ reason: 'private purchase' });
    expect(reject.status).toBe(200);
    t.clock.advance(20 * 60_000);
    expect(await executor.drain()).toMatchObject({ executed: 0 });

    const [pattern] = (await t.http.get('/v1/patterns').set('Authorization', accountant)).body.items;
    expect(pattern).toMatchObject({
      id: rule.body.id,
      approvals: 0,
      amounts: { count: 1, mean: '250.00', min: '250.00', max: '250.00' },
      version: 2,
    });
    const chain = await t.http.get(`/v1/events?correlationId=${rule.body.id}`).set('Authorization', accountant);
    expect(
      chain.body.items.map((e: { data: { cause: string }; proposalId: string | null }) => [e.data.cause, e.proposalId]),
    ).toEqual([
      ['created', null],
      ['auto_approval_executed', kept.body.id],
    ]);
    // The amount rule now knows this merchant: ten times what it saw waits for a person.
    const far = await t.http.post('/v1/proposals').set('Authorization', employee).send(body('2500.00'));
    expect(far.body).toMatchObject({ status: 'PROPOSED', route: 'review_recommended' });
  });
  it('books a receipt sent twice once: the second proposal is flagged, and refused at execution once approved', async () => {
    const company = await t.newCompany('dup');
    await t.connect(company, 'tripletex', 1);
    const employee = `Bearer ${t.token(company, { sub: 'nora@demo.no', role: 'employee', permissions: ['solve'] })}`;
    const accountant = `Bearer ${t.token(company, ACCOUNTANT)}`;
    const receipt = receiptPdf({ note: 'one lunch receipt' }).toString('base64');
    const body = (date: string) => ({
      kind: 'expense',
      merchant: 'Kaffebrenneriet AS',
      amount: '189.00',
      currency: 'NOK',
      date,
      accountCode: '6800',
      vatRate: '25',
      receipt: { filename: 'lunch.pdf', contentType: 'application/pdf', dataBase64: receipt },
    });
    const first = await t.http.post('/v1/proposals').set('Authorization', employee).send(body('2026-11-18'));
    const second = await t.http.post('/v1/proposals').set('Authorization', employee).send(body('2026-11-19'));
    expect(second.body.reasons.join(' ')).toContain(`possible duplicate of proposal ${first.body.id}`);

    for (const id of [first.body.id, second.body.id]) {
      expect((await t.http.post(`/v1/review/${id}/approve`).set('Authorization', accountant).send({})).status).toBe(
        200,
      );
    }
    // Both are claimed at once: whichever reserves the receipt first books it; the other waits, then
    // finds it booked and fails for good.
    await executor.drain();
    t.clock.advance(60_000);
    await executor.drain();

    const vouchers = hosted.sandbox.control
      .for('tripletex')
      .bookings(1)
      .filter((v) => [first.body.id, second.body.id].some((id: string) => JSON.stringify(v).includes(id)));
    expect(vouchers).toHaveLength(1);
    const statuses = [await statusOf(company, first.body.id), await statusOf(company, second.body.id)];
    expect([...statuses].sort()).toEqual(['APPROVED', 'EXECUTED']);
    const [booked, refused] =
      statuses[0] === 'EXECUTED' ? [first.body.id, second.body.id] : [second.body.id, first.body.id];
    expect(JSON.stringify(vouchers[0])).toContain(booked);
    const failed = (await events(company, refused)).at(-1)!;
    expect(failed).toMatchObject({ type: 'ExecutionFailed' });
    expect(JSON.stringify(failed.data)).toContain(`by proposal ${booked}`);
  });
});
