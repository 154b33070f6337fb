import { ExecutionLedger, ExecutionQueue, type ExecutionClaim, type RetryPlan } from '@app/application';
import { ConcurrencyConflict, type ProposalRepository } from '@app/domain';
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
 * `proposal_executions` (a claim lapses with its lease; only the token holder settles), without
 * the locking a single-threaded map does not need.
 */
export class InMemoryExecutions extends ExecutionLedger implements Snapshottable {
  rows = new Map<string, Row>();
  private tokens = 0;

  constructor(
    private readonly proposals: ProposalRepository & {
      listDueForExecution(now: Date, limit: number): Promise<{ id: string; companyId: string }[]>;
    },
  ) {
    super();
  }

  readonly queue: ExecutionQueue = {
    claimDue: async (now: Date, limit: number, leaseUntil: Date): Promise<ExecutionClaim[]> => {
      for (const proposal of await this.proposals.listDueForExecution(now, 1_000)) {
        if (!this.rows.has(proposal.id)) {
          this.rows.set(proposal.id, {
            proposalId: proposal.id,
            companyId: proposal.companyId,
            state: 'pending',
            attempts: 0,
            nextAttemptAt: now,
            token: null,
            bookingId: null,
            failureReported: false,
            mayBeBooked: false,
            lastError: null,
          });
        }
      }
      const claims: ExecutionClaim[] = [];
      for (const row of this.rows.values()) {
        if (claims.length >= limit) break;
        const due =
          ['pending', 'in_flight', 'retry_wait'].includes(row.state) &&
          row.nextAttemptAt !== null &&
          row.nextAttemptAt <= now;
        const proposal = await this.proposals.findById(row.companyId, row.proposalId);
        if (!due || proposal?.status !== 'APPROVED') continue;
        row.state = 'in_flight';
        row.attempts++;
        row.nextAttemptAt = leaseUntil;
        row.token = `token-${++this.tokens}`;
        claims.push({
          proposalId: row.proposalId,
          companyId: row.companyId,
          attempt: row.attempts,
          bookingId: row.bookingId,
          failureReported: row.failureReported,
          token: row.token,
          leaseUntil,
        });
      }
      return claims;
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
