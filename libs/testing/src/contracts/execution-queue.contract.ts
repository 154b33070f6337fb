import type { ExecutionClaim, ExecutionLedger, ExecutionQueue, RetryPlan, UnitOfWork } from '@app/application';
import { ConcurrencyConflict, type Proposal, type ProposalRepository, type ProposalStatus } from '@app/domain';
import { aProposal } from '../mothers/proposal.mother';
import { companies, type ContractOptions, uniqueId } from './contract-support';

export interface ExecutionQueueUnderTest {
  readonly queue: ExecutionQueue;
  /** Where the test stores the proposals the queue reads. */
  readonly proposals: ProposalRepository;
  /** Hands out the ExecutionLedger (`ports.executions`) that settles claims. */
  readonly unitOfWork: UnitOfWork;
}

const T0 = Date.parse('2026-11-20T10:00:00.000Z');
const at = (minutes: number) => new Date(T0 + minutes * 60_000);
const LEASE_MINUTES = 5;

/**
 * The ExecutionQueue contract, with the ExecutionLedger that settles its claims: approved proposals
 * whose executeAfter passed are claimed oldest first (then by id) with a lease and a fresh token;
 * a claim is never handed out twice while its lease lasts and is due again once it lapses; only
 * the current token settles it; a settled execution is never claimed again.
 *
 * The queue claims across companies, so the adapter under test must see only this suite's
 * proposals (a database of its own, emptied by `teardown`).
 */
export function describeExecutionQueueContract(
  name: string,
  factory: () => ExecutionQueueUnderTest | Promise<ExecutionQueueUnderTest>,
  options: ContractOptions = {},
): void {
  describe(`ExecutionQueue contract: ${name}`, () => {
    let subject: ExecutionQueueUnderTest;
    let company: string;
    let otherCompany: string;

    beforeEach(async () => {
      subject = await factory();
      [company, otherCompany] = await companies(options, 2);
    });

    afterEach(async () => {
      await options.teardown?.();
    });

    /** Stores a proposal in `status`; an approved one is due at `dueAtMinute`. */
    async function stored(
      status: ProposalStatus,
      dueAtMinute = 0,
      companyId = company,
      id = uniqueId(),
    ): Promise<Proposal> {
      const template = aProposal(status, { companyId });
      const proposal: Proposal = {
        ...template,
        id,
        correlationId: id,
        executeAfter: status === 'APPROVED' ? at(dueAtMinute) : template.executeAfter,
      };
      await subject.proposals.insert(proposal);
      return proposal;
    }

    const claim = (minute: number, limit = 10, worker = 'worker-a') =>
      subject.queue.claimDue(at(minute), limit, at(minute + LEASE_MINUTES), worker);

    const settle = (work: (ledger: ExecutionLedger) => Promise<void>) =>
      subject.unitOfWork.run((ports) => work(ports.executions));

    it('claims an approved proposal once its executeAfter passed, not before, with a lease, a token and attempt 1', async () => {
      const proposal = await stored('APPROVED', 10);

      expect(await claim(9)).toEqual([]);
      const claims = await claim(10);

      expect(claims).toEqual([
        {
          proposalId: proposal.id,
          companyId: company,
          attempt: 1,
          bookingId: null,
          failureReported: false,
          token: expect.any(String),
          leaseUntil: at(10 + LEASE_MINUTES),
        },
      ]);
    });

    it('claims approved proposals only', async () => {
      await stored('PROPOSED');
      await stored('REJECTED');
      await stored('EXECUTED');
      const approved = await stored('APPROVED', 0, otherCompany);

      expect((await claim(60)).map((c) => [c.proposalId, c.companyId])).toEqual([[approved.id, otherCompany]]);
    });

    it('takes the due proposals oldest first, then by id, at most `limit` at a time, across companies', async () => {
      const third = await stored('APPROVED', -1);
      const first = await stored('APPROVED', -3, otherCompany);
      const [tiedLow, tiedHigh] = [uniqueId(), uniqueId()].sort();
      await stored('APPROVED', -2, company, tiedHigh);
      await stored('APPROVED', -2, otherCompany, tiedLow);

      expect((await claim(0, 2)).map((c) => c.proposalId)).toEqual([first.id, tiedLow]);
      expect((await claim(0, 2)).map((c) => c.proposalId)).toEqual([tiedHigh, third.id]);
      expect(await claim(0, 2)).toEqual([]);
    });

    it('leaves out the companies it is told to: their due executions wait, and are claimed once no longer left out', async () => {
      const ours = await stored('APPROVED', -2);
      const theirs = await stored('APPROVED', -1, otherCompany);

      const claims = await subject.queue.claimDue(at(0), 10, at(LEASE_MINUTES), 'worker-a', [company]);
      expect(claims.map((c) => c.proposalId)).toEqual([theirs.id]);
      expect((await claim(0)).map((c) => c.proposalId)).toEqual([ours.id]);
    });

    it('never hands out a held claim while its lease lasts; once it lapsed, another worker takes it with a new token', async () => {
      const proposal = await stored('APPROVED');
      const [held] = await claim(0, 10, 'worker-a');

      expect(await claim(LEASE_MINUTES - 1, 10, 'worker-b')).toEqual([]);
      const [takenOver] = await claim(LEASE_MINUTES, 10, 'worker-b');

      expect(takenOver).toMatchObject({ proposalId: proposal.id, attempt: 2 });
      expect(takenOver.token).not.toBe(held.token);
    });

    it('renews a held claim so it is not taken over when its first lease ends; a claim taken over is not renewed', async () => {
      await stored('APPROVED');
      const [held] = await claim(0, 10, 'worker-a');

      expect(await subject.queue.renew([held], at(2 * LEASE_MINUTES))).toBe(1);
      expect(await claim(LEASE_MINUTES, 10, 'worker-b')).toEqual([]);
      const [takenOver] = await claim(2 * LEASE_MINUTES, 10, 'worker-b');
      expect(takenOver).toMatchObject({ attempt: 2 });

      // The first worker's renewal comes too late: the new holder keeps its lease.
      expect(await subject.queue.renew([held], at(10 * LEASE_MINUTES))).toBe(0);
      expect(await claim(3 * LEASE_MINUTES, 10, 'worker-c')).toHaveLength(1);
    });

    it('refuses the outcome of a claim whose lease was taken over (ConcurrencyConflict), and takes the new holder’s', async () => {
      await stored('APPROVED');
      const [held] = await claim(0);
      const [takenOver] = await claim(LEASE_MINUTES);

      await expect(settle((ledger) => ledger.markExecuted(held, 'booking-old', at(6)))).rejects.toBeInstanceOf(
        ConcurrencyConflict,
      );
      await expect(settle((ledger) => ledger.markFailed(held, 'late', at(6)))).rejects.toBeInstanceOf(
        ConcurrencyConflict,
      );
      await settle((ledger) => ledger.markExecuted(takenOver, 'booking-1', at(6)));

      expect(await claim(24 * 60)).toEqual([]);
    });

    it('settles a claim once: an executed one is never claimed again, and a second outcome is refused', async () => {
      await stored('APPROVED');
      const [held] = await claim(0);

      await settle((ledger) => ledger.markExecuted(held, 'booking-1', at(1)));

      await expect(settle((ledger) => ledger.markExecuted(held, 'booking-1', at(2)))).rejects.toBeInstanceOf(
        ConcurrencyConflict,
      );
      expect(await claim(24 * 60)).toEqual([]);
    });

    it('never claims a permanently failed execution again', async () => {
      await stored('APPROVED');
      const [held] = await claim(0);

      await settle((ledger) => ledger.markFailed(held, 'refused by the provider', at(1)));

      expect(await claim(24 * 60)).toEqual([]);
    });

    it('claims a retry when its time comes, not before, carrying what the last attempt learned', async () => {
      await stored('APPROVED');
      const [held] = await claim(0);
      const plan: RetryPlan = {
        nextAttemptAt: at(30),
        error: 'provider unavailable',
        mayBeBooked: true,
        bookingId: 'booking-7',
        failureReported: true,
      };

      await settle((ledger) => ledger.scheduleRetry(held, plan, at(1)));

      expect(await claim(29)).toEqual([]);
      const [retry] = await claim(30);
      expect(retry).toMatchObject({ attempt: 2, bookingId: 'booking-7', failureReported: true });
      expect(retry.token).not.toBe(held.token);
    });

    it('keeps a known booking when a later retry learns none', async () => {
      await stored('APPROVED');
      const [first] = await claim(0);
      await settle((ledger) =>
        ledger.scheduleRetry(
          first,
          { nextAttemptAt: at(1), error: 'x', mayBeBooked: true, bookingId: 'booking-7', failureReported: false },
          at(0),
        ),
      );
      const [second] = await claim(1);
      await settle((ledger) =>
        ledger.scheduleRetry(
          second,
          { nextAttemptAt: at(2), error: 'y', mayBeBooked: true, bookingId: null, failureReported: false },
          at(1),
        ),
      );

      expect(await claim(2)).toEqual([expect.objectContaining({ attempt: 3, bookingId: 'booking-7' })]);
    });

    it('defers a claim to its time without counting it as an attempt, keeping what earlier attempts learnt', async () => {
      await stored('APPROVED');
      const [first] = await claim(0);
      await settle((ledger) =>
        ledger.scheduleRetry(
          first,
          { nextAttemptAt: at(1), error: 'x', mayBeBooked: true, bookingId: null, failureReported: true },
          at(0),
        ),
      );
      const [second] = await claim(1);
      expect(second.attempt).toBe(2);

      await settle((ledger) =>
        ledger.defer(second, { nextAttemptAt: at(20), error: 'window closed', bookingId: null }, at(1)),
      );

      expect(await claim(19)).toEqual([]);
      const [third] = await claim(20);
      expect(third).toMatchObject({ attempt: 2, bookingId: null, failureReported: true });
      await settle((ledger) =>
        ledger.defer(third, { nextAttemptAt: at(30), error: 'window closed', bookingId: 'booking-9' }, at(20)),
      );
      expect(await claim(30)).toEqual([expect.objectContaining({ attempt: 2, bookingId: 'booking-9' })]);
    });

    it('refuses to defer a claim no longer held', async () => {
      await stored('APPROVED');
      const [held] = await claim(0);
      await settle((ledger) => ledger.markExecuted(held, 'booking-1', at(1)));
      await expect(
        settle((ledger) => ledger.defer(held, { nextAttemptAt: at(5), error: 'x', bookingId: null }, at(1))),
      ).rejects.toBeInstanceOf(ConcurrencyConflict);
    });

    it('drops an execution whose proposal is no longer approved', async () => {
      const proposal = await stored('APPROVED');
      const [held] = await claim(0);
      await settle((ledger) =>
        ledger.scheduleRetry(
          held,
          { nextAttemptAt: at(1), error: 'x', mayBeBooked: false, bookingId: null, failureReported: false },
          at(0),
        ),
      );

      const current = (await subject.proposals.findById(company, proposal.id)) as Proposal;
      await subject.proposals.update({ ...current, status: 'REJECTED', version: current.version + 1 }, current.version);

      expect(await claim(60)).toEqual([]);
    });

    it('leaves the claim held when the unit of work recording its outcome fails', async () => {
      await stored('APPROVED');
      const [held] = await claim(0);

      await expect(
        subject.unitOfWork.run(async (ports) => {
          await ports.executions.markExecuted(held, 'booking-1', at(1));
          throw new Error('the event append failed');
        }),
      ).rejects.toThrow('the event append failed');

      await settle((ledger) => ledger.markExecuted(held, 'booking-1', at(2)));
      expect(await claim(24 * 60)).toEqual([]);
    });

    it('hands every due proposal to exactly one of many workers claiming at once', async () => {
      const due = new Set<string>();
      for (let i = 0; i < 12; i++) due.add((await stored('APPROVED', -i, i % 2 ? company : otherCompany)).id);

      const rounds = await Promise.all(Array.from({ length: 6 }, (_, w) => claim(0, 3, `worker-${w}`)));
      const rest = await claim(0, 100, 'sweeper');

      const claimed = [...rounds.flat(), ...rest].map((c: ExecutionClaim) => c.proposalId);
      expect(rounds.every((round) => round.length <= 3)).toBe(true);
      expect(claimed.sort()).toEqual([...due].sort());
    });
  });
}
