import { Injectable } from '@nestjs/common';
import { CompanySettingsStore, EmployeeMappingRepository, EventStore, ProposalRepository } from '@app/domain';
import type { Caller } from '../shared/caller';
import { readableProposal } from '../shared/proposal-access';
import { proposalEvents, type ProposalView } from '../shared/proposal-view';
import { proposalPostings } from '../shared/proposal-postings';

export interface GetProposalQuery {
  readonly caller: Caller;
  readonly proposalId: string;
}

/**
 * GET /proposals/{id}: a proposal of the caller's company with its events and postings (planned, and
 * read back once executed). Another company's id is
 * not found (404); an employee may read only the proposals they submitted (403 permission_denied),
 * managers and above every proposal of their company.
 */
@Injectable()
export class GetProposalHandler {
  constructor(
    private readonly proposals: ProposalRepository,
    private readonly events: EventStore,
    private readonly settings: CompanySettingsStore,
    private readonly employees: EmployeeMappingRepository,
  ) {}

  async execute(query: GetProposalQuery): Promise<ProposalView> {
    const { caller, proposalId } = query;
    const proposal = await readableProposal(this.proposals, caller, proposalId);
    const [events, settings, submitter] = await Promise.all([
      proposalEvents(this.events, proposal),
      this.settings.get(proposal.companyId),
      proposal.paidWith === 'employee' ? this.employees.find(proposal.companyId, proposal.submittedBy) : null,
    ]);
    return { proposal, events, postings: proposalPostings(proposal, settings, submitter) };
  }
}
