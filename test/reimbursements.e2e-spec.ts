import { ProposalExecutor } from '@app/application';
import { EmployeeMappingRepository } from '@app/domain';
import {
  ACCOUNTANT,
  MANAGER,
  hostSandbox,
  readyForBookings,
  startJobsApp,
  type HostedSandbox,
  type JobsApp,
} from './support/jobs-app';
import { ManualClock } from './support/manual-clock';
import { isolatedTestDatabase, type IsolatedTestDatabase } from './support/test-database';
import { signInWithLink } from './support/console-sign-in';

/**
 * GET /v1/reimbursements and POST /v1/reimbursements/{id}/paid on both providers: employees' outlays
 * are submitted over HTTP, approved and executed on the provider's sandbox, then listed for pay-out
 * and marked paid back.
 */
const PROVIDERS = ['tripletex', 'fiken'] as const;
const TODAY = '2026-11-28';
const YESTERDAY = '2026-11-27';

describe('reimbursements (e2e, PostgreSQL, both providers)', () => {
  let hosted: HostedSandbox;
  let t: JobsApp;
  let executor: ProposalExecutor;
  let database: IsolatedTestDatabase;

  beforeAll(async () => {
    // The sandbox runs on the service's clock: a Tripletex session ends at Oslo midnight of the date
    // the adapter asks for, so a sandbox on real time would end it before it began once the real
    // date has passed TODAY.
    const clock = new ManualClock(new Date(`${TODAY}T10:00:00.000Z`));
    hosted = await hostSandbox({
      seed: 29,
      companies: 2,
      entriesPerCompany: 10,
      invoicesPerCompany: 2,
      now: () => clock.now(),
    });
    database = await isolatedTestDatabase('reimb');
    t = await startJobsApp({ hosted, clock, databaseUrl: database.url, env: { PROVIDER_RETRIES: '0' } });
    executor = t.app.get(ProposalExecutor);
  });

  afterAll(async () => {
    await t?.close();
    await hosted?.close();
    await database?.dispose();
  });

  const NORA = { sub: 'nora@demo.no', role: 'employee', permissions: ['solve', 'query', 'facts'] };
  const OLA = { sub: 'ola@demo.no', role: 'employee', permissions: ['solve', 'query', 'facts'] };
  const auth = (company: string, claims: Record<string, unknown>) => `Bearer ${t.token(company, claims)}`;

  /**
   * A company on the provider's first sandbox company, Nora and Ola mapped to its first two employees
   * (Fiken, whose API has no employees: to none), as an outlay's booking needs.
   */
  async function companyOn(
    provider: (typeof PROVIDERS)[number],
  ): Promise<{ company: string; noraId: string | null; olaId: string | null }> {
    const company = await t.newCompany(`re${provider.slice(0, 2)}`);
    const employees = await readyForBookings(t, company, provider);
    const noraId: string | null = employees[0]?.id ?? null;
    const olaId: string | null = employees[1]?.id ?? noraId;
    for (const [userId, email, providerEmployeeId] of [
      ['nora', NORA.sub, noraId],
      ['ola', OLA.sub, olaId],
    ] as const) {
      await t.app
        .get(EmployeeMappingRepository)
        .save(
          company,
          userId,
          { email, role: 'employee', externalIdentities: [], providerEmployeeId, defaultDepartmentId: null },
          t.clock.now(),
        );
    }
    return { company, noraId, olaId };
  }

  /** Submits `body` as `who`, and (unless `execute` is false) approves and executes it. */
  async function book(
    company: string,
    who: Record<string, unknown>,
    body: Record<string, unknown>,
    execute = true,
  ): Promise<string> {
    const submitted = await t.http.post('/v1/proposals').set('Authorization', auth(company, who)).send(body);
    expect(submitted.status).toBe(201);
    if (execute) {
      const approved = await t.http
        .post(`/v1/review/${submitted.body.id}/approve`)
        .set('Authorization', auth(company, ACCOUNTANT))
        .send({});
      expect(approved.status).toBe(200);
      const drained = await executor.drain();
      if (drained.executed !== 1) {
        const view = await t.http
          .get(`/v1/proposals/${submitted.body.id}`)
          .set('Authorization', auth(company, ACCOUNTANT));
        throw new Error(
          `${JSON.stringify(body)} not executed: ${JSON.stringify(drained)} ${view.body.lastExecutionError} ${view.body.status}`,
        );
      }
    }
    return submitted.body.id as string;
  }

  const expense = { kind: 'expense', currency: 'NOK', date: YESTERDAY };
  const list = (company: string, who: Record<string, unknown>, query = '') =>
    t.http.get(`/v1/reimbursements${query}`).set('Authorization', auth(company, who));
  const markPaid = (company: string, who: Record<string, unknown>, id: string, body: Record<string, unknown> = {}) =>
    t.http.post(`/v1/reimbursements/${id}/paid`).set('Authorization', auth(company, who)).send(body);

  describe.each(PROVIDERS)('%s', (provider) => {
    it('lists executed employee outlays only, marks one paid back once, and records it', async () => {
      const { company, noraId, olaId } = await companyOn(provider);
      const food = await book(company, NORA, {
        ...expense,
        merchant: 'Meny',
        amount: '345.55',
        accountCode: '5915',
        vatRate: '15',
        paidWith: 'employee',
      });
      const taxi = await book(company, OLA, {
        ...expense,
        merchant: 'Oslo Taxi',
        amount: '412.50',
        accountCode: '7140',
        vatRate: '12',
        paidWith: 'employee',
      });
      const bank = await book(company, NORA, {
        ...expense,
        merchant: 'Vy',
        amount: '560.00',
        accountCode: '7140',
        vatRate: '12',
      });
      await book(company, NORA, {
        ...expense,
        merchant: 'Clas Ohlson',
        amount: '1250.00',
        accountCode: '6800',
        vatRate: '25',
        paidWith: 'company_card',
      });
      await book(company, NORA, {
        kind: 'supplier_invoice',
        merchant: 'Kontorrekvisita AS',
        amount: '10000.00',
        currency: 'NOK',
        date: YESTERDAY,
        accountCode: '6800',
        vatRate: '25',
        supplier: { name: 'Kontorrekvisita AS', organizationNumber: '923609016' },
        invoiceNumber: `F-${provider}`,
        dueDate: '2026-12-11',
      });
      const pending = await book(
        company,
        NORA,
        { ...expense, merchant: 'Kiwi', amount: '99.90', accountCode: '5915', vatRate: '15', paidWith: 'employee' },
        false,
      );

      const open = await list(company, ACCOUNTANT);
      expect(open.status).toBe(200);
      expect(open.body.status).toBe('open');
      expect(open.body.items.map((i: { proposalId: string }) => i.proposalId)).toEqual([food, taxi]);
      const [first] = open.body.items;
      const proposal = await t.http.get(`/v1/proposals/${food}`).set('Authorization', auth(company, ACCOUNTANT));
      const executed = proposal.body.events.find((e: { type: string }) => e.type === 'Executed');
      expect(first).toEqual({
        proposalId: food,
        status: 'open',
        employee: { email: NORA.sub, userId: 'nora', providerEmployeeId: noraId },
        amountNok: '345.55',
        currency: 'NOK',
        amount: '345.55',
        merchant: 'Meny',
        date: YESTERDAY,
        description: null,
        bookedAt: executed.occurredAt,
        booking: { provider, bookingId: proposal.body.booking.bookingId },
        payment: null,
      });
      expect(open.body.items[1].employee).toEqual({ email: OLA.sub, userId: 'ola', providerEmployeeId: olaId });
      expect(open.body.totalsByEmployee).toEqual([
        { employee: NORA.sub, count: 1, amountNok: '345.55' },
        { employee: OLA.sub, count: 1, amountNok: '412.50' },
      ]);
      expect(open.body.items.map((i: { proposalId: string }) => i.proposalId)).not.toContain(pending);
      const reimbursementOf = async (id: string) =>
        (await t.http.get(`/v1/proposals/${id}`).set('Authorization', auth(company, ACCOUNTANT))).body.reimbursement;
      expect(proposal.body.reimbursement).toEqual({ status: 'open' });
      expect(await reimbursementOf(bank)).toBeNull();
      expect(await reimbursementOf(pending)).toBeNull();

      const paid = await markPaid(company, ACCOUNTANT, food, { paidOn: TODAY, reference: 'Nettbank 4471' });
      expect(paid.status).toBe(200);
      expect(paid.body).toEqual({
        paidOn: TODAY,
        reference: 'Nettbank 4471',
        markedBy: ACCOUNTANT.sub,
        markedAt: t.clock.now().toISOString(),
      });

      expect(await reimbursementOf(food)).toEqual({
        status: 'paid',
        paidOn: TODAY,
        reference: 'Nettbank 4471',
        paidBy: ACCOUNTANT.sub,
        paidAt: t.clock.now().toISOString(),
      });
      expect(await reimbursementOf(taxi)).toEqual({ status: 'open' });
      const ownView = await t.http.get(`/v1/proposals/${food}`).set('Authorization', auth(company, NORA));
      expect(ownView.body.reimbursement).toMatchObject({ status: 'paid', paidOn: TODAY });

      const stillOpen = await list(company, ACCOUNTANT, '?status=open');
      expect(stillOpen.body.items.map((i: { proposalId: string }) => i.proposalId)).toEqual([taxi]);
      expect(stillOpen.body.totalsByEmployee).toEqual([{ employee: OLA.sub, count: 1, amountNok: '412.50' }]);
      const paidList = await list(company, ACCOUNTANT, '?status=paid');
      expect(paidList.body.items).toHaveLength(1);
      expect(paidList.body.items[0]).toMatchObject({ proposalId: food, status: 'paid', payment: paid.body });
      const all = await list(company, ACCOUNTANT, `?status=all&employee=${encodeURIComponent('NORA@demo.no')}`);
      expect(all.body.items.map((i: { proposalId: string }) => i.proposalId)).toEqual([food]);

      const events = await t.http
        .get(`/v1/events?type=ReimbursementPaid`)
        .set('Authorization', auth(company, ACCOUNTANT));
      expect(events.status).toBe(200);
      expect(events.body.items).toHaveLength(1);
      expect(events.body.items[0]).toMatchObject({
        type: 'ReimbursementPaid',
        proposalId: food,
        status: 'EXECUTED',
        actor: ACCOUNTANT.sub,
        data: { paidOn: TODAY, reference: 'Nettbank 4471', amountNok: '345.55' },
      });

      // A second mark changes nothing.
      const again = await markPaid(company, ACCOUNTANT, food, { paidOn: YESTERDAY });
      expect(again.status).toBe(409);
      expect(again.body.type).toContain('invalid_transition');
      expect(again.body.detail).toContain(`paid on ${TODAY}`);
      const after = await list(company, ACCOUNTANT, '?status=paid');
      expect(after.body.items[0].payment).toEqual(paid.body);

      // Not an employee's outlay, not executed, or no such proposal.
      const notOwed = await markPaid(company, ACCOUNTANT, bank);
      expect(notOwed.status).toBe(409);
      expect(notOwed.body.detail).toContain("not an employee's outlay");
      const notExecuted = await markPaid(company, ACCOUNTANT, pending);
      expect(notExecuted.status).toBe(409);
      expect(notExecuted.body.detail).toContain('status PROPOSED');
      const unknown = await markPaid(company, ACCOUNTANT, 'no-such-proposal');
      expect(unknown.status).toBe(404);
      expect(unknown.body.type).toContain('not_found');
    });
  });

  it('shows an employee only their own outlays, and lets only an accountant mark them paid', async () => {
    const { company } = await companyOn('tripletex');
    const nora = await book(company, NORA, {
      ...expense,
      merchant: 'Meny',
      amount: '120.00',
      accountCode: '5915',
      vatRate: '15',
      paidWith: 'employee',
    });
    const ola = await book(company, OLA, {
      ...expense,
      merchant: 'Kiwi',
      amount: '80.00',
      accountCode: '5915',
      vatRate: '15',
      paidWith: 'employee',
    });

    const own = await list(company, NORA);
    expect(own.status).toBe(200);
    expect(own.body.items.map((i: { proposalId: string }) => i.proposalId)).toEqual([nora]);
    expect(own.body.totalsByEmployee).toEqual([{ employee: NORA.sub, count: 1, amountNok: '120.00' }]);
    const someoneElse = await list(company, NORA, `?employee=${encodeURIComponent(OLA.sub)}`);
    expect(someoneElse.status).toBe(403);
    expect(someoneElse.body.type).toContain('permission_denied');
    const manager = await list(company, MANAGER);
    expect(manager.body.items.map((i: { proposalId: string }) => i.proposalId)).toEqual([nora, ola]);

    const byEmployee = await markPaid(company, NORA, nora);
    expect(byEmployee.status).toBe(403);
    expect(byEmployee.body.type).toContain('role_insufficient');
    const byManager = await markPaid(company, MANAGER, nora);
    expect(byManager.status).toBe(403);
    const withoutSolve = await markPaid(company, { ...ACCOUNTANT, permissions: ['query', 'monitor'] }, nora);
    expect(withoutSolve.status).toBe(403);
    expect(withoutSolve.body.type).toContain('permission_denied');

    const badDate = await markPaid(company, ACCOUNTANT, nora, { paidOn: '2026-11-31' });
    expect(badDate.status).toBe(400);
    expect(badDate.body.errors.map((e: { field: string }) => e.field)).toEqual(['paidOn']);
    const ahead = await markPaid(company, ACCOUNTANT, nora, { paidOn: '2026-12-05' });
    expect(ahead.status).toBe(400);
    expect(ahead.body.errors.map((e: { field: string }) => e.field)).toEqual(['paidOn']);
    const unknownField = await markPaid(company, ACCOUNTANT, nora, { amount: '120.00' });
    expect(unknownField.status).toBe(400);
    const badStatus = await list(company, ACCOUNTANT, '?status=unpaid');
    expect(badStatus.status).toBe(400);
    expect(await list(company, ACCOUNTANT).then((r) => r.body.items.length)).toBe(2);

    // Without a body: paid today (in Norway), no reference.
    const today = await markPaid(company, ACCOUNTANT, nora);
    expect(today.status).toBe(200);
    expect(today.body).toMatchObject({ paidOn: TODAY, reference: null });
  });

  it('console: an accountant sees what is owed and marks it paid on the web; a manager may not', async () => {
    const { company } = await companyOn('fiken');
    const owed = await book(company, NORA, {
      ...expense,
      merchant: 'Meny',
      amount: '77.70',
      accountCode: '5915',
      vatRate: '15',
      paidWith: 'employee',
    });
    const signIn = async (who: Record<string, unknown>) => {
      const link = await t.http.post('/v1/console/links').set('Authorization', auth(company, who));
      expect(link.status).toBe(200);
      return (await signInWithLink(t.http, link.body.url as string)).cookie;
    };
    const cookie = await signIn(ACCOUNTANT);

    const page = await t.http.get('/console/reimbursements').set('Cookie', cookie);
    expect(page.status).toBe(200);
    expect(page.text).toContain(`data-proposal="${owed}"`);
    const owedPage = await t.http.get(`/console/proposals/${owed}`).set('Cookie', cookie);
    expect(owedPage.status).toBe(200);
    expect(owedPage.text).toContain('data-reimbursement="open"');
    const csrf = /name="_csrf" value="([^"]+)"/.exec(page.text)![1];
    const withoutCsrf = await t.http
      .post(`/console/reimbursements/${owed}/paid`)
      .set('Cookie', cookie)
      .type('form')
      .send({ paidOn: TODAY });
    expect(withoutCsrf.status).toBe(403);
    const marked = await t.http
      .post(`/console/reimbursements/${owed}/paid`)
      .set('Cookie', cookie)
      .type('form')
      .send({ _csrf: csrf, paidOn: YESTERDAY, reference: 'Nettbank 12' });
    expect(marked.status).toBe(303);
    expect(marked.headers.location).toBe('/console/reimbursements?done=paid');

    const after = await t.http.get('/console/reimbursements').set('Cookie', cookie);
    expect(after.text).not.toContain(`data-proposal="${owed}"`);
    const paid = await t.http.get('/console/reimbursements?status=paid').set('Cookie', cookie);
    expect(paid.text).toContain(`data-proposal="${owed}"`);
    expect(paid.text).toContain('Nettbank 12');
    const paidPage = await t.http.get(`/console/proposals/${owed}`).set('Cookie', cookie);
    expect(paidPage.text).toMatch(/data-reimbursement="paid">\s*Paid back on [^<]+\(Nettbank 12\), marked by\s+/);
    expect(paidPage.text).toContain(ACCOUNTANT.sub);
    const events = await t.http
      .get('/v1/events?type=ReimbursementPaid')
      .set('Authorization', auth(company, ACCOUNTANT));
    expect(events.body.items[0]).toMatchObject({
      proposalId: owed,
      channel: 'web',
      actor: ACCOUNTANT.sub,
      data: { paidOn: YESTERDAY, reference: 'Nettbank 12', amountNok: '77.70' },
    });

    const manager = await t.http.get('/console/reimbursements').set('Cookie', await signIn(MANAGER));
    expect(manager.status).toBe(403);
  });
});
