import { Injectable } from '@nestjs/common';
import {
  assertBookable,
  CompanyContextStore,
  CompanySettingsStore,
  creditAccountOf,
  InvalidTransition,
  type CorrectionsInput,
  type Proposal,
  learnFromApproval,
  learningKeyOf,
  NotFound,
  parseCorrections,
  transitionProposal,
  type Pattern,
} from '@app/domain';
import { originOf, type Caller } from '../shared/caller';
import { ApplicationContext } from '../shared/domain-context.provider';
import { proposalEvents, type ProposalView } from '../shared/proposal-view';
import { retryOnConflict } from '../shared/retry-on-conflict';
import { UnitOfWork, type TransactionalPorts } from '../shared/unit-of-work.port';

export interface ApproveProposalCommand {
  readonly caller: Caller;
  readonly proposalId: string;
  /** What the reviewer changed; each key optional (docs/api.md §4.2). */
  readonly corrections?: Readonly<CorrectionsInput> | null;
}

export interface ApprovedProposal extends ProposalView {
  /** The pattern the approval saved or strengthened. */
  readonly pattern: Pattern;
}

/**
 * POST /review/{id}/approve: approves a PROPOSED proposal of the caller's company (not their own:
 * separation of duties), with the corrections applied (parseCorrections / applyCorrections: 400
 * naming the field), to be executed now. What will be booked is checked again against the company's
 * chart and its rules when its context was fetched (assertBookable: 422 unknown_account_code,
 * unknown_vat_rate, account_rule_violated, department_required, fields named `corrections.…`) and
 * against the payment accounts (422 payment_account_not_configured); a supplier invoice whose twin
 * (same supplier organisation number and invoice number) is already approved or executed is
 * refused (409 invalid_transition naming the twin and its booking: the reviewer rejects it as the
 * duplicate it is); and learns from it —
 * saves the pattern merchant → (account, VAT) with the approved values or strengthens the one that
 * exists (PatternSaved). Events, proposal and pattern commit together.
 *
 * Of two concurrent reviews of one proposal exactly one wins; the other re-reads and is refused
 * (409 invalid_transition). A race between first approvals of one merchant is retried and ends in
 * one pattern with both approvals.
 */
@Injectable()
export class ApproveProposalHandler {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly contexts: CompanyContextStore,
    private readonly settings: CompanySettingsStore,
    private readonly ctx: ApplicationContext,
  ) {}

  async execute(command: ApproveProposalCommand): Promise<ApprovedProposal> {
    const { caller, proposalId } = command;
    const corrections = parseCorrections(command.corrections);
    const [context, settings] = await Promise.all([
      this.contexts.get(caller.company),
      this.settings.get(caller.company),
    ]);
    const origin = originOf(caller, context);
    return retryOnConflict(() =>
      this.unitOfWork.run(async (ports) => {
        const current = await ports.proposals.findById(caller.company, proposalId);
        if (!current) throw new NotFound('proposal', proposalId);
        const approved = transitionProposal(current, { type: 'Approve', origin, corrections }, this.ctx);
        // What will be booked, corrections applied, against the chart's rules as they are now.
        const options = { paymentAccounts: settings.paymentAccounts, fieldPrefix: 'corrections.' };
        if (context) assertBookable(context, approved.proposal, options);
        else creditAccountOf(approved.proposal, settings.paymentAccounts);
        await assertNoApprovedTwin(ports.proposals, approved.proposal);
        await ports.events.append(approved.events);
        await ports.proposals.update(approved.proposal, current.version);

        const existing = await ports.patterns.findActiveByKey(caller.company, learningKeyOf(approved.proposal));
        const learned = learnFromApproval(existing, approved.proposal, origin, this.ctx);
        await ports.patterns.save(learned.pattern, existing ? existing.version : null);
        await ports.events.append(learned.events);

        return {
          proposal: approved.proposal,
          events: await proposalEvents(ports.events, approved.proposal),
          pattern: learned.pattern,
        };
      }),
    );
  }
}

/**
 * A supplier invoice is booked once: approving one whose twin is already APPROVED (waiting for its
 * execution) or EXECUTED would only end in a refused execution, so the reviewer is told now.
 */
async function assertNoApprovedTwin(
  proposals: Pick<TransactionalPorts['proposals'], 'findSupplierInvoices'>,
  proposal: Proposal,
): Promise<void> {
  const { supplier, invoiceNumber } = proposal;
  if (proposal.kind !== 'supplier_invoice' || supplier === null || invoiceNumber === null) return;
  const same = await proposals.findSupplierInvoices(proposal.companyId, supplier.organizationNumber, invoiceNumber);
  const twin = same.find((p) => p.id !== proposal.id && (p.status === 'EXECUTED' || p.status === 'APPROVED'));
  if (!twin) return;
  const state = twin.booking
    ? `already booked as ${twin.booking.provider} ${twin.booking.bookingId}`
    : twin.status === 'EXECUTED'
      ? 'already booked'
      : 'already approved, waiting for its execution,';
  throw new InvalidTransition(
    `cannot approve proposal ${proposal.id}: supplier invoice ${invoiceNumber} of ${supplier.organizationNumber} is ` +
      `${state} by proposal ${twin.id}; reject this one if it is a duplicate`,
  );
}
