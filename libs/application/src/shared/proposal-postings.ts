import {
  creditAccountOf,
  PaymentAccountNotConfigured,
  plannedPostings,
  type CompanySettings,
  type EmployeeMapping,
  type Posting,
  type PostingsReadBack,
  type Proposal,
} from '@app/domain';

/**
 * The postings of a proposal as a reviewer sees them: before execution, the postings it will book
 * with the company's accounts now (null, with the reason, when the account for how it was paid is
 * not configured); after execution, also what the provider's ledger shows (its read-back).
 */
export interface ProposalPostings {
  readonly planned: readonly Posting[] | null;
  readonly problem: string | null;
  readonly readBack: PostingsReadBack | null;
}

/** The postings view of `proposal`; `submitter` is the submitter's employee mapping, when there is one. */
export function proposalPostings(
  proposal: Proposal,
  settings: Pick<CompanySettings, 'paymentAccounts'>,
  submitter: EmployeeMapping | null,
): ProposalPostings {
  const readBack = proposal.readBack ?? null;
  let credit: string;
  try {
    credit = creditAccountOf(proposal, settings.paymentAccounts);
  } catch (error) {
    if (!(error instanceof PaymentAccountNotConfigured)) throw error;
    return { planned: readBack?.planned ?? null, problem: error.message, readBack };
  }
  const employee =
    proposal.paidWith === 'employee'
      ? { name: submitter?.email ?? proposal.submittedBy, providerId: submitter?.providerEmployeeId ?? null }
      : null;
  return {
    // After execution the postings planned then stand: the settings may have changed since.
    planned: readBack?.planned ?? plannedPostings(proposal, credit, employee),
    problem: null,
    readBack,
  };
}
