import { Injectable } from '@nestjs/common';
import { NotFound, ProposalRepository } from '@app/domain';
import type { Caller } from '../shared/caller';
import { readableProposal } from '../shared/proposal-access';
import { ReceiptStore, type StoredReceipt } from './receipt-store.port';

export interface ProposalReceiptQuery {
  readonly caller: Caller;
  readonly proposalId: string;
}

/**
 * The receipt of a proposal the caller may read (the rules of GET /proposals/{id}): another
 * company's proposal, or a proposal without a receipt, is not found.
 */
@Injectable()
export class GetProposalReceipt {
  constructor(
    private readonly proposals: ProposalRepository,
    private readonly receipts: ReceiptStore,
  ) {}

  async execute(query: ProposalReceiptQuery): Promise<StoredReceipt> {
    const { caller, proposalId } = query;
    await readableProposal(this.proposals, caller, proposalId);
    const receipt = await this.receipts.find(caller.company, proposalId);
    if (!receipt) throw new NotFound('receipt of proposal', proposalId);
    return receipt;
  }
}
