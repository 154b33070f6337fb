import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { ExecutionQueue, type ExecutionClaim } from '@app/application';
import { select, toNumber } from '../shared/sql';

interface ClaimRow {
  proposal_id: string;
  company_id: string;
  attempts: number | string;
  booking_id: string | null;
  failure_reported: boolean;
}

/**
 * The executor's queue over `proposal_executions`. A proposal is in it from the statement that
 * approved it (the trigger `proposals_enqueue_execution` adds a `pending` row due at its
 * executeAfter; migration 1764390000001). One statement per claim: due rows (pending, retry_wait
 * whose time came, in_flight whose lease lapsed) of proposals still APPROVED, none of the companies
 * left out, locking the execution row AND the proposal row with FOR UPDATE SKIP LOCKED — another
 * worker skips them, and a reject waits for this commit — marked in_flight with a lease and a fresh
 * token, attempts + 1. Only after the commit does the executor call the provider.
 */
export class TypeOrmExecutionQueue extends ExecutionQueue {
  constructor(private readonly dataSource: DataSource) {
    super();
  }

  async claimDue(
    now: Date,
    limit: number,
    leaseUntil: Date,
    worker: string,
    excluding: readonly string[] = [],
  ): Promise<ExecutionClaim[]> {
    const token = randomUUID();
    const rows = await select<ClaimRow>(
      this.dataSource.manager,
      `WITH due AS (
         SELECT e.proposal_id, e.next_attempt_at AS due_at
           FROM proposal_executions e
           JOIN proposals p ON p.id = e.proposal_id
          WHERE e.state IN ('pending', 'in_flight', 'retry_wait')
            AND e.next_attempt_at <= $1
            AND p.status = 'APPROVED'
            AND e.company_id <> ALL($6::text[])
          ORDER BY e.next_attempt_at, e.proposal_id
          LIMIT $2
          FOR UPDATE OF e, p SKIP LOCKED
       ), claimed AS (
         UPDATE proposal_executions e
            SET state = 'in_flight', attempts = e.attempts + 1, next_attempt_at = $3,
                claim_token = $4, claimed_by = $5, updated_at = $1
           FROM due
          WHERE e.proposal_id = due.proposal_id
         RETURNING e.proposal_id, e.company_id, e.attempts, e.booking_id, e.failure_reported, due.due_at
       )
       -- RETURNING keeps no order: the claims in the order they came due.
       SELECT proposal_id, company_id, attempts, booking_id, failure_reported
         FROM claimed ORDER BY due_at, proposal_id`,
      [now, limit, leaseUntil, token, worker, excluding],
    );
    return rows.map((row) => ({
      proposalId: row.proposal_id,
      companyId: row.company_id,
      attempt: toNumber(row.attempts),
      bookingId: row.booking_id,
      failureReported: row.failure_reported,
      token,
      leaseUntil,
    }));
  }

  async renew(claims: readonly ExecutionClaim[], leaseUntil: Date): Promise<number> {
    if (claims.length === 0) return 0;
    const rows = await select<{ proposal_id: string }>(
      this.dataSource.manager,
      `UPDATE proposal_executions e
          SET next_attempt_at = $1
         FROM unnest($2::text[], $3::text[]) AS held (proposal_id, claim_token)
        WHERE e.proposal_id = held.proposal_id AND e.claim_token = held.claim_token AND e.state = 'in_flight'
       RETURNING e.proposal_id`,
      [leaseUntil, claims.map((claim) => claim.proposalId), claims.map((claim) => claim.token)],
    );
    return rows.length;
  }
}
