import { ExecutionLedger, ExecutionQueue, type DeferPlan, type ExecutionClaim, type RetryPlan } from '@app/application';
import { ConcurrencyConflict } from '@app/domain';
import type { InMemoryProposalRepository } from './in-memory-proposal-repository';
import { copy, type Snapshottable } from './snapshottable';

type State = 'pending' | 'in_flight' | 'retry_wait' | 'failed' | 'executed';

interface Row {
  proposalId: string;
  companyId: string;
  state: State;
  attempts: number;
  nextAttemptAt: Date | null;
  token: string | null;
  bookingId: string | null;
  failureReported: boolean;
  mayBeBooked: boolean;
  lastError: string | null;
}

/**
 * The executor's queue and ledger in a map, for use-case tests: the same states and rules as
 * `proposal_executions` (due oldest first, then by proposal id; a claim lapses with its lease; only
 * the token holder settles). A claim runs without awaiting between reading and marking the rows, so
 * concurrent claims never hand out one proposal twice — what FOR UPDATE SKIP LOCKED gives the SQL.
 * An approved proposal's row is added at the first claim after its approval (in the database a
 * trigger adds it in the approving statement); through the port the two cannot be told apart.
 */
export class InMemoryExecutions extends ExecutionLedger implements Snapshottable {
  rows = new Map<string, Row>();
  private tokens = 0;

  constructor(private readonly proposals: InMemoryProposalRepository) {
    super();
  }

  readonly queue: ExecutionQueue = {
    claimDue: async (
      now: Date,
      limit: number,
      leaseUntil: Date,
      _worker?: string,
      excluding: readonly string[] = [],
    ): Promise<ExecutionClaim[]> => {
      await Promise.resolve();
      const approved = new Map(
        this.proposals
          .all()
          .filter((proposal) => proposal.status === 'APPROVED')
          .map((proposal) => [proposal.id, proposal]),
      );
      for (const proposal of approved.values()) {
        if (proposal.executeAfter === null || proposal.executeAfter > now || this.rows.has(proposal.id)) continue;
        this.rows.set(proposal.id, {
          proposalId: proposal.id,
          companyId: proposal.companyId,
          state: 'pending',
          attempts: 0,
          nextAttemptAt: proposal.executeAfter,
          token: null,
          bookingId: null,
          failureReported: false,
          mayBeBooked: false,
          lastError: null,
        });
      }
      const due = [...this.rows.values()]
        .filter(
          (row) =>
            ['pending', 'in_flight', 'retry_wait'].includes(row.state) &&
            row.nextAttemptAt !== null &&
            row.nextAttemptAt <= now &&
            approved.has(row.proposalId) &&
            !excluding.includes(row.companyId),
        )
        .sort(
          (a, b) =>
            (a.nextAttemptAt as Date).getTime() - (b.nextAttemptAt as Date).getTime() ||
            (a.proposalId < b.proposalId ? -1 : a.proposalId > b.proposalId ? 1 : 0),
        )
        .slice(0, Math.max(limit, 0));
      return due.map((row) => {
        row.state = 'in_flight';
        row.attempts++;
        row.nextAttemptAt = leaseUntil;
        row.token = `token-${++this.tokens}`;
        return {
          proposalId: row.proposalId,
          companyId: row.companyId,
          attempt: row.attempts,
          bookingId: row.bookingId,
          failureReported: row.failureReported,
          token: row.token,
          leaseUntil,
        };
      });
    },
    renew: async (claims: readonly ExecutionClaim[], leaseUntil: Date): Promise<number> => {
      await Promise.resolve();
      let held = 0;
      for (const claim of claims) {
        const row = this.rows.get(claim.proposalId);
        if (row?.state !== 'in_flight' || row.token !== claim.token) continue;
        row.nextAttemptAt = leaseUntil;
        held++;
      }
      return held;
    },
  } as ExecutionQueue;

  async markExecuted(claim: ExecutionClaim, bookingId: string): Promise<void> {
    Object.assign(this.held(claim), {
      state: 'executed',
      nextAttemptAt: null,
      token: null,
      bookingId,
      mayBeBooked: false,
    });
  }

  async markFailed(claim: ExecutionClaim, error: string): Promise<void> {
    Object.assign(this.held(claim), {
      state: 'failed',
      nextAttemptAt: null,
      token: null,
      lastError: error,
      mayBeBooked: false,
    });
  }

  async scheduleRetry(claim: ExecutionClaim, plan: RetryPlan): Promise<void> {
    const row = this.held(claim);
    Object.assign(row, {
      state: 'retry_wait',
      nextAttemptAt: plan.nextAttemptAt,
      token: null,
      lastError: plan.error,
      mayBeBooked: plan.mayBeBooked,
      bookingId: plan.bookingId ?? row.bookingId,
      failureReported: plan.failureReported,
    });
  }

  async defer(claim: ExecutionClaim, plan: DeferPlan): Promise<void> {
    const row = this.held(claim);
    Object.assign(row, {
      state: 'retry_wait',
      attempts: row.attempts - 1,
      nextAttemptAt: plan.nextAttemptAt,
      token: null,
      lastError: plan.error,
      bookingId: plan.bookingId ?? row.bookingId,
      mayBeBooked: row.mayBeBooked || plan.bookingId !== null,
    });
  }

  snapshot(): unknown {
    return new Map([...this.rows].map(([id, row]) => [id, copy(row)]));
  }

  restore(snapshot: unknown): void {
    this.rows = new Map(snapshot as Map<string, Row>);
  }

  private held(claim: ExecutionClaim): Row {
    const row = this.rows.get(claim.proposalId);
    if (!row || row.token !== claim.token || row.state !== 'in_flight') {
      throw new ConcurrencyConflict(`the execution of proposal ${claim.proposalId} is no longer held by this worker`);
    }
    return row;
  }
}
