import { Injectable } from '@nestjs/common';
import {
  actorKey,
  DEFAULT_PAGE_LIMIT,
  EmployeeMappingRepository,
  EventStore,
  PermissionDenied,
  ProposalRepository,
  sameActor,
  type EmployeeMapping,
  type Page,
  type Proposal,
  type ReimbursementStatus,
  type ReimbursementTotal,
} from '@app/domain';
import type { Caller } from '../shared/caller';
import { proposalEvents } from '../shared/proposal-view';

export interface ListReimbursementsQuery {
  readonly caller: Caller;
  /** Default `open`: not yet paid back. */
  readonly status?: ReimbursementStatus;
  /** The submitter's email, any letter case. */
  readonly employee?: string;
  /** 1–200, default 50. */
  readonly limit?: number;
  readonly cursor?: string | null;
}

/** One outlay the company owes (or owed) an employee, with what the company knows of the employee. */
export interface ReimbursementItem {
  readonly proposal: Proposal;
  /** The submitter's employee mapping, when the company has one for that email. */
  readonly employee: EmployeeMapping | null;
  /** When it was booked: its Executed event's time. */
  readonly bookedAt: Date;
}

export interface ReimbursementList extends Page<ReimbursementItem> {
  readonly status: ReimbursementStatus;
  /** Per employee, over every outlay of the filter (not only this page). */
  readonly totalsByEmployee: readonly ReimbursementTotal[];
}

/**
 * GET /reimbursements: the company's executed expenses paid with an employee's own money
 * (`paidWith: employee`), open (not yet marked paid back), paid, or both; oldest submission first,
 * keyset-paginated, with the totals per employee the accountant pays out. Who may read what is as
 * for the proposals: managers and above every employee's outlays, an employee only their own
 * (naming someone else is 403 permission_denied).
 */
@Injectable()
export class ListReimbursementsHandler {
  constructor(
    private readonly proposals: ProposalRepository,
    private readonly employees: EmployeeMappingRepository,
    private readonly events: EventStore,
  ) {}

  async execute(query: ListReimbursementsQuery): Promise<ReimbursementList> {
    const { caller } = query;
    const status = query.status ?? 'open';
    let employee = query.employee;
    if (caller.role === 'employee') {
      if (employee !== undefined && !sameActor(employee, caller.actor)) {
        throw new PermissionDenied('employees may list only their own outlays; employee names someone else');
      }
      employee = caller.actor;
    }
    const filter = { status, employee };
    const [page, totalsByEmployee] = await Promise.all([
      this.proposals.listReimbursements(caller.company, filter, {
        limit: query.limit ?? DEFAULT_PAGE_LIMIT,
        cursor: query.cursor ?? null,
      }),
      this.proposals.reimbursementTotals(caller.company, filter),
    ]);
    const mappings = new Map<string, EmployeeMapping | null>();
    for (const proposal of page.items) {
      const key = actorKey(proposal.submittedBy);
      if (!mappings.has(key)) mappings.set(key, await this.employees.findByEmail(caller.company, key));
    }
    const items = await Promise.all(
      page.items.map(async (proposal) => ({
        proposal,
        employee: mappings.get(actorKey(proposal.submittedBy)) ?? null,
        bookedAt: await this.bookedAt(proposal),
      })),
    );
    return {
      status,
      items,
      nextCursor: page.nextCursor,
      totalsByEmployee,
    };
  }

  private async bookedAt(proposal: Proposal): Promise<Date> {
    const executed = (await proposalEvents(this.events, proposal)).find((event) => event.type === 'Executed');
    // An EXECUTED proposal always has its Executed event; its last change is the fallback.
    return executed?.occurredAt ?? proposal.updatedAt;
  }
}
