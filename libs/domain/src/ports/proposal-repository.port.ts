import { Proposal } from '../proposal/proposal';
import { ProposalStatus } from '../proposal/proposal-status';
import { Page, PageRequest } from '../shared/page';

/**
 * The proposals' current state (the read model beside the event store), always scoped by company:
 * another company's id reads as absent.
 *
 * Writes are optimistic: `insert` refuses an id that exists and `update` refuses when the stored
 * version is not `expectedVersion`, both with ConcurrencyConflict.
 */
export abstract class ProposalRepository {
  abstract findById(companyId: string, id: string): Promise<Proposal | null>;

  abstract insert(proposal: Proposal): Promise<void>;

  /** Stores `proposal` (whose version is newer) if the stored one still has `expectedVersion`. */
  abstract update(proposal: Proposal, expectedVersion: number): Promise<void>;

  /** Proposals currently in `status`, oldest submission first (then id), keyset-paginated. */
  abstract listByStatus(companyId: string, status: ProposalStatus, page: PageRequest): Promise<Page<Proposal>>;

  /**
   * Approved proposals whose executeAfter ≤ `now`, oldest first, across companies: the execution
   * worker's queue.
   */
  abstract listDueForExecution(now: Date, limit: number): Promise<Proposal[]>;
}
