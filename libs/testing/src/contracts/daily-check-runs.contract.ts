import type { DailyCheckClaim, DailyCheckLedger, DailyCheckRuns, DailyCheckScope, UnitOfWork } from '@app/application';
import {
  ConcurrencyConflict,
  type CompanyRepository,
  type ProviderConnectionRepository,
  type ProviderKind,
} from '@app/domain';
import { type ContractOptions, uniqueCompanyId } from './contract-support';

export interface DailyCheckRunsUnderTest {
  readonly runs: DailyCheckRuns;
  /** Hands out the DailyCheckLedger (`ports.dailyChecks`) that records a run's success. */
  readonly unitOfWork: UnitOfWork;
  /** The companies and connections the runs are scheduled and partitioned by. */
  readonly companies: CompanyRepository;
  readonly connections: ProviderConnectionRepository;
}

const T0 = Date.parse('2026-11-20T07:00:00.000Z');
const at = (minutes: number) => new Date(T0 + minutes * 60_000);
const DAY = '2026-11-20';
const LEASE_MINUTES = 10;

/**
 * The DailyCheckRuns contract, with the DailyCheckLedger that records a success: one run per
 * company and day; due runs claimed oldest first (then by company), within a scope (day, company,
 * the company's provider now), with a lease and a token of their own; only that token finishes the
 * run; a failure is retried at its time (or now, ignoring the backoff) or never.
 *
 * Runs are scheduled and claimed across companies, so the adapter under test must see only this
 * suite's connections and runs (a database of its own, emptied by `teardown`).
 */
export function describeDailyCheckRunsContract(
  name: string,
  factory: () => DailyCheckRunsUnderTest | Promise<DailyCheckRunsUnderTest>,
  options: ContractOptions = {},
): void {
  describe(`DailyCheckRuns contract: ${name}`, () => {
    let subject: DailyCheckRunsUnderTest;

    beforeEach(async () => {
      subject = await factory();
    });

    afterEach(async () => {
      await options.teardown?.();
    });

    /** New companies, sorted by id, connected as told (null: no connection; 'reauth': a refused one). */
    async function companiesConnectedTo(...providers: (ProviderKind | 'reauth' | null)[]): Promise<string[]> {
      const ids = providers.map(() => uniqueCompanyId()).sort();
      for (const [i, id] of ids.entries()) {
        await subject.companies.create({ id, name: `Company ${id}` });
        const provider = providers[i];
        if (provider === null) continue;
        await subject.connections.connect({
          companyId: id,
          grant:
            provider === 'fiken'
              ? {
                  provider,
                  secret: {
                    kind: 'oauth',
                    tokens: { accessToken: 'access', refreshToken: 'refresh', expiresAt: T0 + 3_600_000 },
                  },
                }
              : { provider: 'tripletex', secret: { kind: 'token', token: 'employee-token' } },
          externalCompanyId: null,
          externalCompanyName: null,
          connectedBy: 'admin@example.com',
        });
        if (provider === 'reauth') await subject.connections.markNeedsReauthorization(id, 'refused');
      }
      return ids;
    }

    const claim = (
      minute: number,
      scope: Partial<DailyCheckScope> = {},
      limit = 10,
      worker = 'worker-a',
    ): Promise<DailyCheckClaim[]> =>
      subject.runs.claim(at(minute), at(minute + LEASE_MINUTES), worker, { provider: 'tripletex', ...scope }, limit);

    const inLedger = (work: (ledger: DailyCheckLedger) => Promise<void>) =>
      subject.unitOfWork.run((ports) => work(ports.dailyChecks));

    const counts = { missingReceipts: 2, overdueInvoices: 1 };

    it('schedules one pending run per company with a working connection, once per day', async () => {
      const [tripletex, fiken] = await companiesConnectedTo('tripletex', 'fiken', 'reauth', null);

      expect(await subject.runs.schedule(DAY, at(0))).toBe(2);
      expect(await subject.runs.schedule(DAY, at(1))).toBe(0);

      expect(await subject.runs.history({ day: DAY, limit: 10 })).toEqual(
        [
          [tripletex, 'tripletex'],
          [fiken, 'fiken'],
        ]
          .sort()
          .map(([companyId, provider]) => ({
            companyId,
            day: DAY,
            status: 'pending',
            attempts: 0,
            provider,
            startedAt: null,
            finishedAt: null,
            counts: null,
            itemsFound: null,
            error: null,
            nextAttemptAt: at(0),
          })),
      );
    });

    it('schedules a named company even without a working connection, and no unknown one', async () => {
      const [refused, unconnected] = await companiesConnectedTo('reauth', null);

      expect(await subject.runs.schedule(DAY, at(0), refused)).toBe(1);
      expect(await subject.runs.schedule(DAY, at(0), unconnected)).toBe(1);
      expect(await subject.runs.schedule(DAY, at(0), uniqueCompanyId('unknown'))).toBe(0);

      expect((await subject.runs.history({ day: DAY, limit: 10 })).map((r) => [r.companyId, r.provider])).toEqual([
        [refused, 'tripletex'],
        [unconnected, null],
      ]);
    });

    it('claims due runs of the scope’s provider oldest due first, then by company, at most `limit`, each with a token of its own', async () => {
      const [a, b, c, fiken] = await companiesConnectedTo('tripletex', 'tripletex', 'tripletex', 'fiken');
      await subject.runs.schedule(DAY, at(0), c);
      await subject.runs.schedule(DAY, at(1), b);
      await subject.runs.schedule(DAY, at(1), a);
      await subject.runs.schedule(DAY, at(1), fiken);

      const first = await claim(5, {}, 2);
      const second = await claim(5, {}, 2);

      expect([...first, ...second].map((r) => [r.companyId, r.day, r.attempt, r.provider])).toEqual([
        [c, DAY, 1, 'tripletex'],
        [a, DAY, 1, 'tripletex'],
        [b, DAY, 1, 'tripletex'],
      ]);
      expect(new Set([...first, ...second].map((r) => r.token)).size).toBe(3);
      expect((await claim(5, { provider: 'fiken' })).map((r) => [r.companyId, r.provider])).toEqual([[fiken, 'fiken']]);
      expect(await claim(5, { provider: 'fiken' })).toEqual([]);
    });

    it('gives runs of companies without a working connection to the `none` scope, with no provider', async () => {
      const [refused, unconnected, working] = await companiesConnectedTo('reauth', null, 'tripletex');
      for (const id of [refused, unconnected, working]) await subject.runs.schedule(DAY, at(0), id);

      expect((await claim(1, { provider: 'none' })).map((r) => [r.companyId, r.provider])).toEqual(
        [
          [refused, null],
          [unconnected, null],
        ].sort(),
      );
      expect((await claim(1)).map((r) => r.companyId)).toEqual([working]);
    });

    it('follows the company’s provider now, not the one it had when the run was scheduled', async () => {
      const [company] = await companiesConnectedTo('tripletex');
      await subject.runs.schedule(DAY, at(0));
      await subject.connections.connect({
        companyId: company,
        grant: {
          provider: 'fiken',
          secret: { kind: 'oauth', tokens: { accessToken: 'a', refreshToken: 'r', expiresAt: T0 + 3_600_000 } },
        },
        externalCompanyId: null,
        externalCompanyName: null,
        connectedBy: 'admin@example.com',
      });

      expect(await claim(1, { provider: 'tripletex' })).toEqual([]);
      expect((await claim(1, { provider: 'fiken' })).map((r) => r.provider)).toEqual(['fiken']);
      expect((await subject.runs.history({ companyId: company, limit: 1 }))[0]).toMatchObject({
        status: 'running',
        provider: 'fiken',
        startedAt: at(1),
      });
    });

    it('claims within the scope’s day and company only', async () => {
      const [a, b] = await companiesConnectedTo('tripletex', 'tripletex');
      await subject.runs.schedule(DAY, at(0));
      await subject.runs.schedule('2026-11-19', at(0));

      expect((await claim(1, { day: '2026-11-19', companyId: b })).map((r) => [r.companyId, r.day])).toEqual([
        [b, '2026-11-19'],
      ]);
      expect((await claim(1, { day: DAY })).map((r) => r.companyId)).toEqual([a, b]);
      expect((await claim(1)).map((r) => [r.companyId, r.day])).toEqual([[a, '2026-11-19']]);
    });

    it('never hands out a held run while its lease lasts; once it lapsed, another worker takes it with a new token', async () => {
      const [company] = await companiesConnectedTo('tripletex');
      await subject.runs.schedule(DAY, at(0));
      const [held] = await claim(0, {}, 10, 'worker-a');

      expect(await claim(LEASE_MINUTES - 1, {}, 10, 'worker-b')).toEqual([]);
      const [takenOver] = await claim(LEASE_MINUTES, {}, 10, 'worker-b');

      expect(takenOver).toMatchObject({ companyId: company, attempt: 2 });
      expect(takenOver.token).not.toBe(held.token);
      await expect(subject.runs.fail(held, 'late', at(11), null)).rejects.toBeInstanceOf(ConcurrencyConflict);
      await expect(inLedger((ledger) => ledger.succeed(held, counts, at(11)))).rejects.toBeInstanceOf(
        ConcurrencyConflict,
      );
      await inLedger((ledger) => ledger.succeed(takenOver, counts, at(11)));
    });

    it('records a success once, with its counts, and never claims the run again', async () => {
      const [company] = await companiesConnectedTo('tripletex');
      await subject.runs.schedule(DAY, at(0));
      const [held] = await claim(0);

      await inLedger((ledger) => ledger.succeed(held, counts, at(3)));

      await expect(inLedger((ledger) => ledger.succeed(held, counts, at(4)))).rejects.toBeInstanceOf(
        ConcurrencyConflict,
      );
      expect(await subject.runs.history({ companyId: company, limit: 10 })).toEqual([
        {
          companyId: company,
          day: DAY,
          status: 'succeeded',
          attempts: 1,
          provider: 'tripletex',
          startedAt: at(0),
          finishedAt: at(3),
          counts: { missingReceipts: 2, overdueInvoices: 1 },
          itemsFound: 3,
          error: null,
          nextAttemptAt: null,
        },
      ]);
      expect(await claim(24 * 60, { ignoreBackoff: true })).toEqual([]);
      expect(await subject.runs.countDue(at(24 * 60), { ignoreBackoff: true })).toBe(0);
    });

    it('leaves the run held when the unit of work recording its success fails', async () => {
      await companiesConnectedTo('tripletex');
      await subject.runs.schedule(DAY, at(0));
      const [held] = await claim(0);

      await expect(
        subject.unitOfWork.run(async (ports) => {
          await ports.dailyChecks.succeed(held, counts, at(1));
          throw new Error('the notification failed');
        }),
      ).rejects.toThrow('the notification failed');

      expect((await subject.runs.history({ limit: 1 }))[0]).toMatchObject({ status: 'running', finishedAt: null });
      await inLedger((ledger) => ledger.succeed(held, counts, at(2)));
    });

    it('retries a failed run at its time, or now when told to ignore the backoff; never once given up', async () => {
      const [retried, givenUp] = await companiesConnectedTo('tripletex', 'tripletex');
      await subject.runs.schedule(DAY, at(0));
      const [first, second] = await claim(0);
      const longError = 'x'.repeat(3000);

      await subject.runs.fail(first, longError, at(1), at(30));
      await subject.runs.fail(second, 'no such company at the provider', at(1), null);

      const [history] = await subject.runs.history({ companyId: retried, limit: 1 });
      expect(history).toMatchObject({ status: 'failed', finishedAt: at(1), nextAttemptAt: at(30), attempts: 1 });
      expect(history.error).toBe('x'.repeat(2000));
      expect(await subject.runs.countDue(at(29), {})).toBe(0);
      expect(await claim(29)).toEqual([]);
      expect(await subject.runs.countDue(at(29), { ignoreBackoff: true })).toBe(1);
      expect((await claim(29, { ignoreBackoff: true })).map((r) => [r.companyId, r.attempt])).toEqual([[retried, 2]]);
      expect(await subject.runs.history({ companyId: givenUp, limit: 1 })).toEqual([
        expect.objectContaining({ status: 'failed', nextAttemptAt: null, error: 'no such company at the provider' }),
      ]);
      expect(await claim(24 * 60, { ignoreBackoff: true, companyId: givenUp })).toEqual([]);
    });

    it('reopens a day’s finished runs, its own company’s only when named, and leaves a held one to its holder', async () => {
      const [succeeded, failed, held, otherDay] = await companiesConnectedTo(
        'tripletex',
        'tripletex',
        'tripletex',
        'tripletex',
      );
      await subject.runs.schedule(DAY, at(0));
      await subject.runs.schedule('2026-11-19', at(0), otherDay);
      const claims = await claim(0, { day: DAY });
      const of = (company: string) => claims.find((c) => c.companyId === company)!;
      await inLedger((ledger) => ledger.succeed(of(succeeded), counts, at(1)));
      await subject.runs.fail(of(failed), 'refused', at(1), null);
      await inLedger((ledger) => ledger.succeed(of(otherDay), counts, at(1)));
      const [earlier] = await claim(0, { day: '2026-11-19' });
      await inLedger((ledger) => ledger.succeed(earlier, counts, at(1)));

      expect(await subject.runs.reopen(DAY, at(5), succeeded)).toBe(1);
      expect(await subject.runs.reopen(DAY, at(6))).toBe(2); // failed, and otherDay's run of DAY

      expect(await subject.runs.history({ companyId: succeeded, limit: 1 })).toEqual([
        {
          companyId: succeeded,
          day: DAY,
          status: 'pending',
          attempts: 0,
          provider: 'tripletex',
          startedAt: null,
          finishedAt: null,
          counts: null,
          itemsFound: null,
          error: null,
          nextAttemptAt: at(5),
        },
      ]);
      expect((await subject.runs.history({ companyId: held, limit: 1 }))[0]).toMatchObject({ status: 'running' });
      expect(await subject.runs.history({ companyId: otherDay, day: '2026-11-19', limit: 1 })).toEqual([
        expect.objectContaining({ status: 'succeeded' }),
      ]);
      expect((await claim(6, { day: DAY })).map((c) => [c.companyId, c.attempt]).sort()).toEqual(
        [
          [succeeded, 1],
          [failed, 1],
          [otherDay, 1],
        ].sort(),
      );
      await expect(inLedger((ledger) => ledger.succeed(of(succeeded), counts, at(7)))).rejects.toBeInstanceOf(
        ConcurrencyConflict,
      );
    });

    it('counts the due runs in scope: pending, failed and due, running with a lapsed lease', async () => {
      const [a, b, c] = await companiesConnectedTo('tripletex', 'tripletex', 'tripletex');
      await subject.runs.schedule(DAY, at(0));
      await subject.runs.schedule('2026-11-19', at(0), a);
      const [held] = await claim(0, { companyId: b, day: DAY });

      expect(await subject.runs.countDue(at(1), {})).toBe(3);
      expect(await subject.runs.countDue(at(1), { day: DAY })).toBe(2);
      expect(await subject.runs.countDue(at(1), { companyId: a })).toBe(2);
      expect(await subject.runs.countDue(at(1), { companyId: c, day: '2026-11-19' })).toBe(0);
      expect(await subject.runs.countDue(at(LEASE_MINUTES), {})).toBe(4);
      await subject.runs.fail(held, 'x', at(1), at(60));
      expect(await subject.runs.countDue(at(59), {})).toBe(3);
      expect(await subject.runs.countDue(at(60), {})).toBe(4);
    });

    it('lists the history newest day first, then by company, filtered and limited', async () => {
      const [a, b] = await companiesConnectedTo('tripletex', 'tripletex');
      await subject.runs.schedule('2026-11-18', at(0));
      await subject.runs.schedule(DAY, at(0));
      await subject.runs.schedule('2026-11-19', at(0), b);

      const order = (runs: { companyId: string; day: string }[]) => runs.map((r) => [r.companyId, r.day]);
      expect(order(await subject.runs.history({ limit: 10 }))).toEqual([
        [a, DAY],
        [b, DAY],
        [b, '2026-11-19'],
        [a, '2026-11-18'],
        [b, '2026-11-18'],
      ]);
      expect(order(await subject.runs.history({ limit: 2, companyId: b }))).toEqual([
        [b, DAY],
        [b, '2026-11-19'],
      ]);
      expect(order(await subject.runs.history({ limit: 10, day: '2026-11-18' }))).toEqual([
        [a, '2026-11-18'],
        [b, '2026-11-18'],
      ]);
    });

    it('hands every due run to exactly one of many workers claiming at once', async () => {
      const ids = await companiesConnectedTo(...Array.from({ length: 12 }, () => 'tripletex' as const));
      await subject.runs.schedule(DAY, at(0));

      const rounds = await Promise.all(Array.from({ length: 6 }, (_, w) => claim(1, {}, 3, `worker-${w}`)));
      const rest = await claim(1, {}, 100, 'sweeper');

      expect(rounds.every((round) => round.length <= 3)).toBe(true);
      expect([...rounds.flat(), ...rest].map((r) => r.companyId).sort()).toEqual(ids);
    });
  });
}
