import { Injectable } from '@nestjs/common';
import {
  assertInChart,
  CompanyContextStore,
  CompanySettingsStore,
  ConfidenceEngine,
  FieldErrorCollector,
  invalidField,
  normalizeMerchant,
  NotFound,
  parseExpenseDetails,
  PatternsChanged,
  PatternStore,
  submitProposal,
  transitionProposal,
  type AutoApprovalPolicy,
  type CompanyContext,
  type ExpenseDetails,
  type OutboundMessage,
  type Pattern,
  type ProposalEvent,
} from '@app/domain';
import { ApplicationOptions } from '../application.options';
import { IdempotentExecution, type IdempotentOutcome } from '../idempotency/idempotent-execution';
import { decodeReceipt, type DecodedReceipt } from '../receipts/receipt-upload';
import { ApplicationUnitOfWork, type ApplicationTransactionalPorts } from '../shared/application-unit-of-work.port';
import { originOf, type Caller } from '../shared/caller';
import { ApplicationContext } from '../shared/domain-context.provider';
import { autoApprovedMessage, needsReviewMessage } from '../shared/proposal-notifications';
import type { ProposalView } from '../shared/proposal-view';
import type { ProposalSubmission, SubmitProposalCommand } from './submit-proposal.command';
import { KnownMerchantPatterns } from './known-merchant-patterns';
import { refuseUnknownSubmissionFields } from './submission-shape';

const MAX_ID_LENGTH = 255;

/** What one submission stores, once validated and with the company's settings read. */
interface Submission {
  readonly caller: Caller;
  readonly details: ExpenseDetails;
  readonly receipt: DecodedReceipt | null;
  readonly resubmissionOf: string | null;
  readonly context: CompanyContext | null;
  readonly executionDelayMinutes: number;
  readonly autoApproval: AutoApprovalPolicy;
  readonly merchantKey: string;
  readonly candidates: readonly Pattern[];
  /** The candidates were remembered, not read for this submission: the unit of work expects them unchanged. */
  readonly remembered: boolean;
}

/**
 * POST /proposals: validates the proposal (its form, then against the company's chart when the
 * chart was fetched: 422 unknown_account_code / unknown_vat_rate), scores it against the company's
 * patterns, stores it as PROPOSED and — when the ConfidenceEngine routes it to auto_approve —
 * APPROVED with executeAfter = now + the company's execution delay. The Proposed (and Approved)
 * events, the proposal, the receipt's bytes, the notification (review channel, or the user's thread
 * for an auto-approval) and the idempotency key commit in one unit of work; a replayed key answers
 * the recorded response without any of it.
 *
 * A merchant whose exact-key patterns this process read lately is scored against them without a
 * read (KnownMerchantPatterns), and the unit of work expects them unchanged; if they changed, it
 * stored nothing, and the submission reads the patterns and is scored and stored again, once.
 */
@Injectable()
export class SubmitProposalHandler {
  constructor(
    private readonly unitOfWork: ApplicationUnitOfWork,
    private readonly settings: CompanySettingsStore,
    private readonly contexts: CompanyContextStore,
    private readonly patterns: PatternStore,
    private readonly idempotency: IdempotentExecution,
    private readonly engine: ConfidenceEngine,
    private readonly ctx: ApplicationContext,
    private readonly options: ApplicationOptions,
    private readonly known: KnownMerchantPatterns,
  ) {}

  async execute(command: SubmitProposalCommand): Promise<IdempotentOutcome<ProposalView>> {
    const { caller, submission } = command;
    const validated = this.validate(submission);
    const merchantKey = normalizeMerchant(validated.details.merchant);
    // Read before the unit of work: inside it, only its own ports may touch the database. Scoring
    // needs no transaction, and the unit of work stays short. A merchant met lately is scored
    // against its remembered patterns, which the unit of work then expects unchanged.
    const known = this.known.get(caller.company, merchantKey);
    const [settings, context, candidates] = await Promise.all([
      this.settings.get(caller.company),
      this.contexts.get(caller.company),
      known ?? this.readCandidates(caller.company, merchantKey),
    ]);
    const stored: Submission = {
      caller,
      details: validated.details,
      receipt: validated.receipt,
      resubmissionOf: validated.resubmissionOf,
      context,
      merchantKey,
      candidates,
      remembered: known !== undefined,
      executionDelayMinutes: settings.executionDelayMinutes,
      autoApproval: { autoApproveMaxAmount: settings.autoApproveMaxAmount },
    };
    try {
      return await this.storeOnce(command, stored);
    } catch (error) {
      if (!(error instanceof PatternsChanged) || !stored.remembered) throw error;
      // The remembered patterns changed meanwhile (nothing was stored): read them and score again.
      this.known.forget(caller.company, merchantKey);
      const fresh = await this.readCandidates(caller.company, merchantKey);
      return this.storeOnce(command, { ...stored, candidates: fresh, remembered: false });
    }
  }

  private storeOnce(command: SubmitProposalCommand, submission: Submission): Promise<IdempotentOutcome<ProposalView>> {
    const scope = { companyId: submission.caller.company, actor: submission.caller.actor };
    return this.unitOfWork.run((ports) =>
      this.idempotency.run(ports.idempotency, command.idempotency, scope, command.submission, () =>
        this.store(ports, submission),
      ),
    );
  }

  private async readCandidates(companyId: string, merchantKey: string): Promise<readonly Pattern[]> {
    const candidates = await this.patterns.findCandidates(companyId, merchantKey);
    this.known.remember(companyId, merchantKey, candidates);
    return candidates;
  }

  private async store(ports: ApplicationTransactionalPorts, submission: Submission): Promise<ProposalView> {
    const { caller, details, receipt, resubmissionOf, context } = submission;
    if (context) assertInChart(context, details);
    if (submission.remembered)
      await ports.patterns.expectActive(caller.company, submission.merchantKey, submission.candidates);
    const previous = resubmissionOf ? await ports.proposals.findById(caller.company, resubmissionOf) : null;
    if (resubmissionOf && !previous) throw new NotFound('proposal', resubmissionOf);

    const origin = originOf(caller, context);
    // The submitter, for separation of duties; the details carry the amounts the limit compares.
    const assessment = this.engine.score(
      { ...details, submittedBy: caller.actor },
      submission.candidates,
      submission.autoApproval,
    );
    const submitted = submitProposal(
      { companyId: caller.company, origin, details, assessment, resubmissionOf: previous },
      this.ctx,
    );
    let proposal = submitted.proposal;
    const events: ProposalEvent[] = [...submitted.events];
    const messages: OutboundMessage[] = [];
    if (proposal.route === 'auto_approve') {
      const command = { type: 'AutoApprove', origin, executionDelayMinutes: submission.executionDelayMinutes } as const;
      const approved = transitionProposal(proposal, command, this.ctx);
      proposal = approved.proposal;
      events.push(...approved.events);
      messages.push(autoApprovedMessage(proposal));
    } else {
      messages.push(needsReviewMessage(proposal));
    }

    await ports.events.append(events);
    await ports.proposals.insert(proposal);
    if (receipt) {
      const { filename, contentType, sha256 } = receipt.metadata;
      await ports.receipts.save({
        proposalId: proposal.id,
        companyId: caller.company,
        filename,
        contentType,
        sha256,
        bytes: receipt.bytes,
      });
    }
    await ports.notifier.notify(messages);
    return { proposal, events };
  }

  /** Every problem of the request at once: unknown fields, the content (domain rules), the receipt file, the reference. */
  private validate(submission: ProposalSubmission) {
    const errors = new FieldErrorCollector();
    refuseUnknownSubmissionFields(submission, errors);
    const upload = submission.receipt;
    const receipt = upload ? errors.check(() => decodeReceipt(upload, this.options.receiptMaxBytes)) : undefined;
    // Field by field rather than `{ ...submission, receipt }`: V8 (Node 20) adds a property after a
    // leading spread through a slow path, and this runs for every submission.
    const details = errors.check(() =>
      parseExpenseDetails({
        kind: submission.kind,
        merchant: submission.merchant,
        amount: submission.amount,
        currency: submission.currency,
        amountNok: submission.amountNok,
        date: submission.date,
        accountCode: submission.accountCode,
        vatRate: submission.vatRate,
        description: submission.description,
        receipt: receipt?.metadata ?? null,
        thread: submission.thread,
      }),
    );
    const resubmissionOf = errors.check(() => {
      const id = submission.resubmissionOf;
      if (id === undefined || id === null) return null;
      if (typeof id !== 'string' || id.length === 0 || id.length > MAX_ID_LENGTH) {
        invalidField('resubmissionOf', 'must be the id of a rejected proposal, or null');
      }
      return id;
    });
    errors.throwIfAny('the proposal is invalid');
    // throwIfAny returned: every check passed and produced its value.
    return { details: details as ExpenseDetails, receipt: receipt ?? null, resubmissionOf: resubmissionOf ?? null };
  }
}
