import type { EntityManager } from 'typeorm';
import { ExecutionLedger, type DeferPlan, type ExecutionClaim, type RetryPlan } from '@app/application';
import { ConcurrencyConflict } from '@app/domain';
import { execute } from '../shared/sql';

/**
 * The end of a claimed execution, written in the executor's unit of work. Every write is a
 * compare-and-set on the claim's token while in flight: a worker whose lease lapsed and was taken
 * over changes nothing (ConcurrencyConflict rolls its unit of work back, events included).
 */
export class TypeOrmExecutionLedger extends ExecutionLedger {
  constructor(private readonly manager: EntityManager) {
    super();
  }

  async markExecuted(claim: ExecutionClaim, bookingId: string, now: Date): Promise<void> {
    await this.settle(
      claim,
      `state = 'executed', next_attempt_at = NULL, may_be_booked = false, booking_id = $3, last_error = NULL, updated_at = $4`,
      [bookingId, now],
    );
  }

  async markFailed(claim: ExecutionClaim, error: string, now: Date): Promise<void> {
    await this.settle(
      claim,
      `state = 'failed', next_attempt_at = NULL, may_be_booked = false, last_error = $3, updated_at = $4`,
      [error, now],
    );
  }

  async scheduleRetry(claim: ExecutionClaim, plan: RetryPlan, now: Date): Promise<void> {
    await this.settle(
      claim,
      `state = 'retry_wait', next_attempt_at = $3, last_error = $4, may_be_booked = $5,
       booking_id = COALESCE($6, booking_id), failure_reported = $7, updated_at = $8`,
      [plan.nextAttemptAt, plan.error, plan.mayBeBooked, plan.bookingId, plan.failureReported, now],
    );
  }

  async defer(claim: ExecutionClaim, plan: DeferPlan, now: Date): Promise<void> {
    await this.settle(
      claim,
      `state = 'retry_wait', attempts = attempts - 1, next_attempt_at = $3, last_error = $4,
       booking_id = COALESCE($5, booking_id), may_be_booked = may_be_booked OR $5::text IS NOT NULL, updated_at = $6`,
      [plan.nextAttemptAt, plan.error, plan.bookingId, now],
    );
  }

  private async settle(claim: ExecutionClaim, assignments: string, parameters: unknown[]): Promise<void> {
    const { affected } = await execute(
      this.manager,
      `UPDATE proposal_executions SET ${assignments}, claim_token = NULL
        WHERE proposal_id = $1 AND claim_token = $2 AND state = 'in_flight'`,
      [claim.proposalId, claim.token, ...parameters],
    );
    if (affected !== 1) {
      throw new ConcurrencyConflict(`the execution of proposal ${claim.proposalId} is no longer held by this worker`);
    }
  }
}
