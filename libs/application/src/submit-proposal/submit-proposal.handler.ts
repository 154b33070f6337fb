import { Injectable } from '@nestjs/common';
import {
  assertBookable,
  creditAccountOf,
  EmployeeMappingRepository,
  withDefaultDepartment,
  CompanyContextStore,
  CompanySettingsStore,
  ConfidenceEngine,
  duplicateAmountRange,
  duplicateDateWindow,
  duplicateLookbackStart,
  findPossibleDuplicates,
  holdOutsideOpenPeriod,
  holdPossibleDuplicates,
  withSupplierInvoiceTwins,
  nokAmountOf,
  pdfFingerprint,
  FieldErrorCollector,
  invalidField,
  normalizeMerchant,
  NotFound,
  openPeriodStartOf,
  osloDate,
  parseExpenseDetails,
  findAccount,
  ProposalRepository,
  submitProposal,
  transitionProposal,
  type AccountingDate,
  type AutoApprovalPolicy,
  type CompanyContext,
  type DuplicateMatch,
  type ExpenseDetails,
  type OutboundMessage,
  type PaymentAccounts,
  type ProposalEvent,
  type ReceiptFingerprint,
} from '@app/domain';
import { ApplicationOptions } from '../application.options';
import { IdempotencyConflict, IdempotentExecution, type IdempotentOutcome } from '../idempotency/idempotent-execution';
import { imageReceiptProblem, isImageReceiptType } from '../receipts/image-header';
import { PdfCheck } from '../receipts/pdf-check';
import { imageReceiptFingerprint } from '../receipts/receipt-fingerprint';
import { decodeReceipt, type DecodedReceipt } from '../receipts/receipt-upload';
import { originOf, type Caller } from '../shared/caller';
import { assertMayRead } from '../shared/proposal-access';
import { ApplicationContext } from '../shared/domain-context.provider';
import { autoApprovedMessage, needsReviewMessage } from '../shared/proposal-notifications';
import type { ProposalView } from '../shared/proposal-view';
import { SubmissionReads, type SubmissionReadings } from './submission-reads.port';
import { SubmissionStore, type RecordedUse, type SubmissionWrite } from './submission-store.port';
import type { ProposalSubmission, SubmitProposalCommand } from './submit-proposal.command';

const MAX_ID_LENGTH = 255;

const scopeOf = (caller: Caller) => ({ companyId: caller.company, actor: caller.actor });

/** A used key's answer: its recorded response again, or 409 idempotency_conflict for another request. */
function answerOf(use: RecordedUse, request: { readonly key: string }): IdempotentOutcome<ProposalView> {
  if (use.outcome === 'conflict') throw new IdempotencyConflict(request.key);
  return { replayed: true, response: use.response };
}

/** What one submission stores, once validated and with the company's settings and patterns read. */
interface Submission {
  readonly caller: Caller;
  readonly details: ExpenseDetails;
  readonly receipt: DecodedReceipt | null;
  /** The receipt's fingerprint, to recognise the same receipt in other bytes. */
  readonly receiptFingerprint: ReceiptFingerprint | null;
  readonly resubmissionOf: string | null;
  readonly context: CompanyContext | null;
  readonly paymentAccounts: PaymentAccounts;
  readonly executionDelayMinutes: number;
  readonly autoApproval: AutoApprovalPolicy;
  readonly candidates: SubmissionReadings['candidates'];
  readonly duplicates: readonly DuplicateMatch[];
  /** The first day of the company's open period (openPeriodStartOf). */
  readonly openPeriodStart: AccountingDate;
}

/**
 * POST /proposals: validates the proposal (its content, then against the company's chart and its
 * rules when the chart was fetched — assertBookable: 422 unknown_account_code / unknown_vat_rate /
 * account_rule_violated / department_required, the submitter's default department filling in a
 * missing one; a payment method without an account: 422 payment_account_not_configured; a date
 * more than a day ahead of today in Norway: 400), scores it against the company's patterns, holds a possible duplicate of an
 * earlier proposal or a date before the company's open period for review, stores it as PROPOSED
 * and — when the ConfidenceEngine routes it to auto_approve —
 * APPROVED with executeAfter = now + the company's execution delay.
 *
 * One write stores it all (SubmissionStore.store, one atomic statement): the Proposed (and
 * Approved) events, the proposal, the receipt's bytes, the notification (review channel, or the
 * user's thread for an auto-approval) and, with an Idempotency-Key, the key with the response it
 * records. A concurrent request with the same key waits on the key until this one commits, then
 * answers its recorded response (or 409 idempotency_conflict for another body); a used key stores
 * nothing, and answers so even when the domain refuses the repeated request.
 */
@Injectable()
export class SubmitProposalHandler {
  constructor(
    private readonly submissions: SubmissionStore,
    private readonly settings: CompanySettingsStore,
    private readonly contexts: CompanyContextStore,
    private readonly reads: SubmissionReads,
    private readonly proposals: ProposalRepository,
    private readonly idempotency: IdempotentExecution,
    private readonly engine: ConfidenceEngine,
    private readonly ctx: ApplicationContext,
    private readonly options: ApplicationOptions,
    private readonly pdf: PdfCheck,
    private readonly employees: EmployeeMappingRepository,
  ) {}

  /**
   * The submitter's default department (their employee mapping, by user id, else by email), where
   * the proposal names none and one of its accounts requires a department: only then is the mapping
   * read, so an ordinary submission costs no extra round trip.
   */
  private async withSubmitterDepartment(
    caller: Caller,
    details: ExpenseDetails,
    context: CompanyContext | null,
  ): Promise<ExpenseDetails> {
    if (details.departmentId !== null || !context) return details;
    const needsOne = details.lines.some((line) => findAccount(context, line.accountCode)?.rules?.requiresDepartment);
    if (!needsOne) return details;
    const byId = await this.employees.find(caller.company, caller.actor);
    const submitter =
      byId || !caller.actor.includes('@') ? byId : await this.employees.findByEmail(caller.company, caller.actor);
    return withDefaultDepartment(details, submitter?.defaultDepartmentId);
  }

  async execute(command: SubmitProposalCommand): Promise<IdempotentOutcome<ProposalView>> {
    const { caller, submission } = command;
    const today = osloDate(this.ctx.clock.now());
    const checked = await this.validate(submission, today);
    // Everything scoring needs is read before the write, which is one statement: the settings and
    // the chart (cached per instance) and the merchant's patterns with the possible duplicates, one read.
    const [settings, context, { candidates, duplicates }] = await Promise.all([
      this.settings.get(caller.company),
      this.contexts.get(caller.company),
      this.readBeforeScoring(caller.company, checked.details, checked.receiptFingerprint),
    ]);
    const validated = { ...checked, details: await this.withSubmitterDepartment(caller, checked.details, context) };
    const stored: Submission = {
      caller,
      ...validated,
      context,
      paymentAccounts: settings.paymentAccounts,
      candidates,
      duplicates,
      executionDelayMinutes: settings.executionDelayMinutes,
      autoApproval: { autoApproveMaxAmount: settings.autoApproveMaxAmount },
      openPeriodStart: openPeriodStartOf(settings, today),
    };
    const request = command.idempotency;
    const keyed = request && { request, record: this.idempotency.recordOf(request, scopeOf(caller), submission) };
    let prepared: { view: ProposalView; write: SubmissionWrite };
    try {
      prepared = await this.prepare(stored);
    } catch (error) {
      // A used key answers what it recorded, whatever this request's own errors: a retry of an
      // accepted resubmission finds its proposal resubmitted already.
      const earlier = keyed && (await this.submissions.recorded(keyed.record));
      if (keyed && earlier) return answerOf(earlier, keyed.request);
      throw error;
    }
    const key = keyed && { record: keyed.record, response: keyed.request.respond(prepared.view) };
    const outcome = await this.submissions.store(prepared.write, key ?? undefined);
    if (outcome.outcome === 'stored' || !keyed) return { replayed: false, result: prepared.view };
    return answerOf(outcome, keyed.request);
  }

  /** What the submission stores, and the view of it the caller gets back. */
  private async prepare(submission: Submission): Promise<{ view: ProposalView; write: SubmissionWrite }> {
    const { caller, details, receipt, receiptFingerprint, resubmissionOf, context } = submission;
    // The chart's rules, when the chart was fetched; the payment method's account in any case.
    if (context) assertBookable(context, details, { paymentAccounts: submission.paymentAccounts });
    else creditAccountOf(details, submission.paymentAccounts);
    const previous = resubmissionOf ? await this.proposals.findById(caller.company, resubmissionOf) : null;
    if (resubmissionOf && !previous) throw new NotFound('proposal', resubmissionOf);
    // Only a proposal the caller may read can be corrected: an employee resubmits only their own.
    if (previous) assertMayRead(caller, previous);

    const origin = originOf(caller, context);
    // The submitter, for separation of duties; the details carry the amounts the limit compares.
    // A possible duplicate, or a date before the open period, is held for review whatever the
    // patterns say, its reasons saying why.
    const assessment = holdOutsideOpenPeriod(
      holdPossibleDuplicates(
        this.engine.score({ ...details, submittedBy: caller.actor }, submission.candidates, submission.autoApproval),
        submission.duplicates,
      ),
      details.date,
      submission.openPeriodStart,
    );
    const submitted = submitProposal(
      { companyId: caller.company, origin, details, assessment, resubmissionOf: previous, receiptFingerprint },
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

    const stored = receipt && {
      proposalId: proposal.id,
      companyId: caller.company,
      filename: receipt.metadata.filename,
      contentType: receipt.metadata.contentType,
      sha256: receipt.metadata.sha256,
      bytes: receipt.bytes,
    };
    return { view: { proposal, events }, write: { events, proposal, receipt: stored, messages } };
  }

  /**
   * What scoring reads, in one read (SubmissionReads): the merchant's candidate patterns, and the
   * earlier records this expense may repeat (findPossibleDuplicates) — the company's proposals of
   * the lookback that were not rejected, with the same receipt (bytes or fingerprint) or a NOK amount
   * close to this one's around the date, and the provider's bookings the history import read (in
   * NOK) with such an amount around the date; for a supplier invoice, also the company's earlier
   * proposals of the same supplier and invoice number (withSupplierInvoiceTwins).
   */
  private async readBeforeScoring(
    companyId: string,
    details: ExpenseDetails,
    receiptFingerprint: ReceiptFingerprint | null,
  ): Promise<{ candidates: SubmissionReadings['candidates']; duplicates: DuplicateMatch[] }> {
    const window = duplicateDateWindow(details.date);
    const amounts = duplicateAmountRange(nokAmountOf(details));
    const receiptSha256 = details.receipt?.sha256 ?? null;
    const { supplier, invoiceNumber } = details;
    const invoice = details.kind === 'supplier_invoice' && supplier !== null && invoiceNumber !== null;
    const read = await this.reads.read(companyId, {
      merchantKey: normalizeMerchant(details.merchant),
      receiptSha256,
      receiptFingerprint,
      amountMin: amounts.min,
      amountMax: amounts.max,
      dateFrom: window.from,
      dateTo: window.to,
      submittedSince: duplicateLookbackStart(this.ctx.clock.now()),
      supplierInvoice: invoice ? { organizationNumber: supplier.organizationNumber, invoiceNumber } : null,
    });
    const probe = { ...details, receiptSha256, receiptFingerprint };
    const matches = findPossibleDuplicates(probe, read.earlier, read.booked);
    return { candidates: read.candidates, duplicates: withSupplierInvoiceTwins(details, read.sameInvoice, matches) };
  }

  /**
   * Every problem of the content at once (the domain's rules), the receipt file and the reference.
   * The HTTP layer has checked the request's shape; the rules of the content live here. A PDF
   * receipt must also parse as one (PdfCheck), and an image's header must read and declare no more
   * than MAX_RECEIPT_PIXELS and MAX_RECEIPT_PAGES, before anything is stored. The receipt's
   * fingerprint is computed here too: a PDF's from the same parse, an image's by sharp-phash.
   */
  private async validate(submission: ProposalSubmission, today: AccountingDate) {
    const errors = new FieldErrorCollector();
    const upload = submission.receipt;
    const receipt = upload ? errors.check(() => decodeReceipt(upload, this.options.receiptMaxBytes)) : undefined;
    let receiptFingerprint: ReceiptFingerprint | null = null;
    if (receipt?.metadata.contentType === 'application/pdf') {
      const verdict = await this.pdf.examine(receipt.bytes);
      if ('problem' in verdict) {
        errors.add('receipt.dataBase64', `receipt.dataBase64 is not a application/pdf file: it ${verdict.problem}`);
      } else if (verdict.contentSha256 !== null) {
        receiptFingerprint = pdfFingerprint(verdict.contentSha256);
      }
    } else if (receipt && isImageReceiptType(receipt.metadata.contentType)) {
      const problem = await imageReceiptProblem(receipt.bytes);
      if (problem !== undefined)
        errors.add('receipt.dataBase64', `receipt.dataBase64 is refused: the image ${problem}`);
      else receiptFingerprint = await imageReceiptFingerprint(receipt.bytes);
    }
    const details = errors.check(() =>
      parseExpenseDetails({ ...submission, receipt: receipt?.metadata ?? null }, today),
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
    return {
      details: details as ExpenseDetails,
      receipt: receipt ?? null,
      receiptFingerprint,
      resubmissionOf: resubmissionOf ?? null,
    };
  }
}
