import { InvalidTransition, NotFound, PermissionDenied } from '../errors/domain-error';
import { DomainContext } from '../shared/domain-context';
import { EventOrigin, sameActor } from '../identity/identity';
import type { ApiCall } from '../provider/api-call';
import { ConfidenceAssessment } from '../confidence/confidence-engine';
import { normalizeMerchant } from '../confidence/normalize-merchant';
import { DomainEventOf, PostingData, ProposalEvent, ProposedEvent } from '../events/domain-event';
import { formatMoney } from '../values/money';
import { assertNotAhead, osloDate, parseAccountingDate } from '../values/accounting-date';
import { invalidField } from '../values/field-errors';
import type { ReceiptFingerprint } from '../duplicates/receipt-fingerprint';
import { ExpenseDetails } from './expense-details';
import { applyCorrections, correctionsJson, parseCorrections } from './corrections';
import { PostingsReadBack, Proposal } from './proposal';
import type { Posting } from '../bookkeeping/bookkeeping';
import {
  MAX_REIMBURSEMENT_REFERENCE_LENGTH,
  MAX_REJECTION_REASON_LENGTH,
  ProposalCommand,
  ProposalCommandOf,
  ProposalCommandType,
} from './proposal-commands';
import { ProposalStatus } from './proposal-status';

/** A proposal's new state and the events that record the change, in chain order. */
export interface ProposalTransition<E extends ProposalEvent = ProposalEvent> {
  readonly proposal: Proposal;
  readonly events: E[];
}

export interface SubmitProposalInput {
  readonly companyId: string;
  readonly origin: EventOrigin;
  readonly details: ExpenseDetails;
  /** The ConfidenceEngine's verdict on `details` against the company's patterns. */
  readonly assessment: Pick<ConfidenceAssessment, 'score' | 'route' | 'reasons'>;
  /** The REJECTED proposal this one corrects (read by the caller within the same company). */
  readonly resubmissionOf?: Proposal | null;
  /** The fingerprint of the receipt's bytes (Proposal.receiptFingerprint), when there is one. */
  readonly receiptFingerprint?: ReceiptFingerprint | null;
}

/**
 * Creates a proposal in status PROPOSED with its Proposed event. A new proposal starts its own chain
 * (correlationId = its id, sequence 1). A resubmission joins the chain of the proposal it corrects,
 * which must be REJECTED and submitted by the same person (any other gets PermissionDenied, whatever
 * their role), right after that proposal's last event: resubmitting the same rejected proposal
 * twice makes the second append collide in the event store (ConcurrencyConflict).
 */
export function submitProposal(input: SubmitProposalInput, ctx: DomainContext): ProposalTransition<ProposedEvent> {
  const { companyId, origin, details, assessment } = input;
  const previous = input.resubmissionOf ?? null;
  if (previous) {
    if (previous.companyId !== companyId) throw new NotFound('proposal', previous.id);
    if (previous.status !== 'REJECTED') {
      throw new InvalidTransition(
        `cannot resubmit proposal ${previous.id} in status ${previous.status}: only a REJECTED proposal can be resubmitted`,
      );
    }
    // A correction chain is its submitter's: a colleague (of any role) submits a new proposal instead.
    if (!sameActor(origin.actor, previous.submittedBy)) {
      throw new PermissionDenied(
        `proposal ${previous.id} was submitted by someone else: only its submitter may resubmit it; submit a new proposal instead`,
      );
    }
  }
  const id = ctx.ids.next();
  const now = ctx.clock.now();
  const proposal: Proposal = {
    ...details,
    id,
    companyId,
    correlationId: previous ? previous.correlationId : id,
    version: previous ? previous.version + 1 : 1,
    merchantKey: normalizeMerchant(details.merchant),
    submittedBy: origin.actor,
    channel: origin.channel,
    submittedAt: now,
    updatedAt: now,
    status: 'PROPOSED',
    confidence: assessment.score,
    route: assessment.route,
    reasons: [...assessment.reasons],
    executeAfter: null,
    resubmissionOf: previous ? previous.id : null,
    autoApproved: false,
    approvedBy: null,
    corrections: null,
    rejectedBy: null,
    rejectionReason: null,
    booking: null,
    lastExecutionError: null,
    receiptFingerprint: details.receipt ? (input.receiptFingerprint ?? null) : null,
  };
  const event = proposalEvent(proposal, 'Proposed', origin, [], now, ctx, {
    merchantKey: proposal.merchantKey,
    route: proposal.route,
    reasons: [...proposal.reasons],
    ...proposalContent(proposal),
  });
  return { proposal, events: [event] };
}

/**
 * The proposal state machine (spec §3, docs/api.md §4.4): one exhaustive switch over every
 * (status, command) pair. Allowed:
 *
 *   PROPOSED --AutoApprove (route auto_approve)--> APPROVED   executeAfter = now + company delay
 *   PROPOSED --Approve (not by the submitter)----> APPROVED   executeAfter = now
 *   PROPOSED, APPROVED --Reject------------------> REJECTED   (reject is possible until executed)
 *   APPROVED --MarkExecuted (now ≥ executeAfter)-> EXECUTED
 *   APPROVED --RecordExecutionFailure------------> APPROVED   (stays approved; can still be rejected)
 *   EXECUTED --MarkReimbursed (an employee outlay, once)-> EXECUTED   (the employee was paid back)
 *
 * Every other pair throws InvalidTransition (409). Command payloads are validated first
 * (ValidationFailed, 400), then the state (InvalidTransition, 409), then who acts
 * (PermissionDenied, 403).
 */
export function transitionProposal(
  proposal: Proposal,
  command: ProposalCommand,
  ctx: DomainContext,
): ProposalTransition {
  validateCommand(command);
  const now = ctx.clock.now();
  const pair = `${proposal.status}:${command.type}` as const;
  switch (pair) {
    case 'PROPOSED:AutoApprove':
      return autoApprove(proposal, commandOf(command, 'AutoApprove'), now, ctx);
    case 'PROPOSED:Approve':
      return approve(proposal, commandOf(command, 'Approve'), now, ctx);
    case 'PROPOSED:Reject':
    case 'APPROVED:Reject':
      return reject(proposal, commandOf(command, 'Reject'), now, ctx);
    case 'APPROVED:MarkExecuted':
      return markExecuted(proposal, commandOf(command, 'MarkExecuted'), now, ctx);
    case 'APPROVED:RecordExecutionFailure':
      return recordExecutionFailure(proposal, commandOf(command, 'RecordExecutionFailure'), now, ctx);
    case 'EXECUTED:MarkReimbursed':
      return markReimbursed(proposal, commandOf(command, 'MarkReimbursed'), now, ctx);
    case 'PROPOSED:MarkReimbursed':
    case 'APPROVED:MarkReimbursed':
    case 'REJECTED:MarkReimbursed':
    case 'PROPOSED:MarkExecuted':
    case 'PROPOSED:RecordExecutionFailure':
    case 'APPROVED:AutoApprove':
    case 'APPROVED:Approve':
    case 'EXECUTED:AutoApprove':
    case 'EXECUTED:Approve':
    case 'EXECUTED:Reject':
    case 'EXECUTED:MarkExecuted':
    case 'EXECUTED:RecordExecutionFailure':
    case 'REJECTED:AutoApprove':
    case 'REJECTED:Approve':
    case 'REJECTED:Reject':
    case 'REJECTED:MarkExecuted':
    case 'REJECTED:RecordExecutionFailure':
      throw refused(proposal, command.type);
    default:
      return assertNever(pair);
  }
}

const VERBS: Record<ProposalCommandType, string> = {
  AutoApprove: 'auto-approve',
  Approve: 'approve',
  Reject: 'reject',
  MarkExecuted: 'execute',
  RecordExecutionFailure: 'record an execution failure for',
  MarkReimbursed: 'mark as reimbursed',
};

const WHY_NOT: Record<ProposalStatus, string> = {
  PROPOSED: 'it has not been approved',
  APPROVED: 'it is already approved',
  EXECUTED: 'it has already been executed',
  REJECTED: 'it has been rejected (resubmit a corrected proposal instead)',
};

function refused(proposal: Proposal, type: ProposalCommandType): InvalidTransition {
  const why = type === 'MarkReimbursed' ? 'only an executed outlay can be paid back' : WHY_NOT[proposal.status];
  return new InvalidTransition(`cannot ${VERBS[type]} a proposal in status ${proposal.status}: ${why}`);
}

function assertNever(value: never): never {
  throw new Error(`unhandled proposal transition ${String(value)}`);
}

/** The switch above matched `status:type`, so the command's type is known. */
function commandOf<T extends ProposalCommandType>(command: ProposalCommand, type: T): ProposalCommandOf<T> {
  if (command.type !== type) throw new Error(`expected a ${type} command, got ${command.type}`);
  return command as ProposalCommandOf<T>;
}

function validateCommand(command: ProposalCommand): void {
  switch (command.type) {
    case 'AutoApprove':
      if (!Number.isSafeInteger(command.executionDelayMinutes) || command.executionDelayMinutes < 0) {
        invalidField('executionDelayMinutes', 'must be a whole number of minutes, 0 or more');
      }
      return;
    case 'Approve':
      parseCorrections(correctionsJson(command.corrections ?? null));
      return;
    case 'Reject': {
      const reason = typeof command.reason === 'string' ? command.reason.trim() : '';
      if (reason.length === 0) invalidField('reason', 'is required');
      if (reason.length > MAX_REJECTION_REASON_LENGTH)
        invalidField('reason', `must be at most ${MAX_REJECTION_REASON_LENGTH} characters`);
      return;
    }
    case 'MarkExecuted':
      if (!command.bookingId) invalidField('bookingId', 'is required');
      return;
    case 'RecordExecutionFailure':
      if (!command.message) invalidField('message', 'is required');
      return;
    case 'MarkReimbursed':
      parseAccountingDate(command.paidOn, 'paidOn');
      if (command.reference !== null) {
        if (typeof command.reference !== 'string' || command.reference.trim().length === 0) {
          invalidField('reference', 'must not be empty when given');
        }
        if (command.reference.length > MAX_REIMBURSEMENT_REFERENCE_LENGTH) {
          invalidField('reference', `must be at most ${MAX_REIMBURSEMENT_REFERENCE_LENGTH} characters`);
        }
      }
      return;
    default:
      assertNever(command);
  }
}

function autoApprove(
  proposal: Proposal,
  command: ProposalCommandOf<'AutoApprove'>,
  now: Date,
  ctx: DomainContext,
): ProposalTransition {
  if (proposal.route !== 'auto_approve') {
    throw new InvalidTransition(
      `cannot auto-approve a proposal routed ${proposal.route} (confidence ${proposal.confidence}): only auto_approve proposals are approved without review`,
    );
  }
  const executeAfter = new Date(now.getTime() + command.executionDelayMinutes * 60_000);
  const next: Proposal = { ...proposal, status: 'APPROVED', autoApproved: true, executeAfter };
  return advance(proposal, next, 'Approved', command.origin, [], now, ctx, {
    auto: true,
    corrections: null,
    accountCode: next.accountCode,
    vatRate: next.vatRate,
    executeAfter: executeAfter.toISOString(),
  });
}

function approve(
  proposal: Proposal,
  command: ProposalCommandOf<'Approve'>,
  now: Date,
  ctx: DomainContext,
): ProposalTransition {
  if (sameActor(command.origin.actor, proposal.submittedBy)) {
    throw new PermissionDenied(
      `${command.origin.actor} submitted proposal ${proposal.id} and cannot also approve it: separation of duties requires another reviewer`,
    );
  }
  const corrections = parseCorrections(correctionsJson(command.corrections ?? null));
  const executeAfter = now;
  const next: Proposal = {
    ...applyCorrections(proposal, corrections),
    status: 'APPROVED',
    approvedBy: command.origin.actor,
    corrections,
    executeAfter,
  };
  return advance(proposal, next, 'Approved', command.origin, [], now, ctx, {
    auto: false,
    corrections: correctionsJson(corrections),
    accountCode: next.accountCode,
    vatRate: next.vatRate,
    executeAfter: executeAfter.toISOString(),
  });
}

function reject(
  proposal: Proposal,
  command: ProposalCommandOf<'Reject'>,
  now: Date,
  ctx: DomainContext,
): ProposalTransition {
  const reason = command.reason.trim();
  const next: Proposal = { ...proposal, status: 'REJECTED', rejectedBy: command.origin.actor, rejectionReason: reason };
  return advance(proposal, next, 'Rejected', command.origin, [], now, ctx, { reason });
}

function markExecuted(
  proposal: Proposal,
  command: ProposalCommandOf<'MarkExecuted'>,
  now: Date,
  ctx: DomainContext,
): ProposalTransition {
  if (proposal.executeAfter && now.getTime() < proposal.executeAfter.getTime()) {
    throw new InvalidTransition(
      `cannot execute proposal ${proposal.id} before ${proposal.executeAfter.toISOString()}: it may still be rejected until then`,
    );
  }
  const next: Proposal = {
    ...proposal,
    status: 'EXECUTED',
    booking: { provider: command.origin.provider, bookingId: command.bookingId },
    lastExecutionError: null,
    ...(command.readBack && { readBack: command.readBack }),
  };
  return advance(proposal, next, 'Executed', command.origin, command.apiCalls, now, ctx, {
    bookingId: command.bookingId,
    ...(command.readBack && { readBack: readBackData(command.readBack) }),
  });
}

function recordExecutionFailure(
  proposal: Proposal,
  command: ProposalCommandOf<'RecordExecutionFailure'>,
  now: Date,
  ctx: DomainContext,
): ProposalTransition {
  const next: Proposal = { ...proposal, lastExecutionError: command.message };
  return advance(proposal, next, 'ExecutionFailed', command.origin, command.apiCalls, now, ctx, {
    message: command.message,
  });
}

function markReimbursed(
  proposal: Proposal,
  command: ProposalCommandOf<'MarkReimbursed'>,
  now: Date,
  ctx: DomainContext,
): ProposalTransition {
  if (proposal.kind !== 'expense' || proposal.paidWith !== 'employee') {
    throw new InvalidTransition(
      `proposal ${proposal.id} is not an employee's outlay (paidWith employee): there is nobody to reimburse`,
    );
  }
  if (proposal.reimbursement) {
    throw new InvalidTransition(
      `proposal ${proposal.id} was already marked reimbursed (paid on ${proposal.reimbursement.paidOn} by ${proposal.reimbursement.markedBy})`,
    );
  }
  assertNotAhead(command.paidOn, osloDate(now), 'paidOn');
  const reference = command.reference === null ? null : command.reference.trim();
  const next: Proposal = {
    ...proposal,
    reimbursement: { paidOn: command.paidOn, reference, markedBy: command.origin.actor, markedAt: now },
  };
  return advance(proposal, next, 'ReimbursementPaid', command.origin, [], now, ctx, {
    paidOn: command.paidOn,
    reference,
    amountNok: formatMoney(proposal.amountNok ?? proposal.amount),
  });
}

/** Moves the proposal one event further along its chain: the new state and the event recording it. */
function advance<T extends ProposalEvent['type']>(
  before: Proposal,
  changed: Proposal,
  type: T,
  origin: EventOrigin,
  apiCalls: readonly ApiCall[],
  now: Date,
  ctx: DomainContext,
  data: DomainEventOf<T>['data'],
): ProposalTransition {
  const proposal: Proposal = { ...changed, version: before.version + 1, updatedAt: now };
  // DomainEventOf<T> for a generic T is one member of the ProposalEvent union.
  const event = proposalEvent(proposal, type, origin, apiCalls, now, ctx, data) as ProposalEvent;
  return { proposal, events: [event] };
}

/** The event that brought `proposal` to its current state, at position `proposal.version` of its chain. */
function proposalEvent<T extends ProposalEvent['type']>(
  proposal: Proposal,
  type: T,
  origin: EventOrigin,
  apiCalls: readonly ApiCall[],
  now: Date,
  ctx: DomainContext,
  data: DomainEventOf<T>['data'],
): DomainEventOf<T> {
  const event = {
    id: ctx.ids.next(),
    type,
    status: proposal.status,
    proposalId: proposal.id,
    correlationId: proposal.correlationId,
    sequence: proposal.version,
    occurredAt: now,
    actor: origin.actor,
    company: proposal.companyId,
    channel: origin.channel,
    provider: origin.provider,
    api_calls: apiCalls.map((call) => ({ method: call.method, path: call.path, status: call.status })),
    confidence: proposal.confidence,
    data,
  };
  // TypeScript cannot correlate `type` with `data` through the generic; both come from T.
  return event as DomainEventOf<T>;
}

/** A read-back as the Executed event records it: JSON-safe, money as decimal strings. */
function readBackData(readBack: PostingsReadBack) {
  return {
    planned: readBack.planned ? readBack.planned.map(postingData) : null,
    booked: readBack.booked ? readBack.booked.map(postingData) : null,
    differences: [...readBack.differences],
    error: readBack.error,
  };
}

/** A posting in wire form: the amount as a decimal string of NOK (debit +, credit −). */
export function postingData(posting: Posting): PostingData {
  return {
    accountCode: posting.accountCode,
    amount: formatMoney(posting.amount),
    vatCode: posting.vatCode,
    party: posting.party ? { ...posting.party } : null,
    description: posting.description,
    generated: posting.generated,
    ...(posting.invoiceNumber !== undefined && { invoiceNumber: posting.invoiceNumber }),
    ...(posting.dueDate !== undefined && { dueDate: posting.dueDate }),
    ...(posting.kid !== undefined && { kid: posting.kid }),
  };
}

/**
 * The bookkeeping fields of a proposal in wire form (docs/api.md §4.1): how it was paid, its VAT
 * treatment, its lines (amounts as decimal strings), a supplier invoice's supplier, invoice number
 * and due date, and the department.
 */
export function bookkeepingContent(proposal: ExpenseDetails) {
  return {
    paidWith: proposal.paidWith,
    vatTreatment: proposal.vatTreatment,
    lines: proposal.lines.map((line) => ({
      accountCode: line.accountCode,
      vatRate: line.vatRate,
      amount: formatMoney(line.amount),
      description: line.description,
    })),
    supplier: proposal.supplier ? { ...proposal.supplier } : null,
    invoiceNumber: proposal.invoiceNumber,
    dueDate: proposal.dueDate,
    departmentId: proposal.departmentId,
  };
}

/** What was proposed, JSON-safe with money as a decimal string: the Proposed event's data and the API's view. */
export function proposalContent(proposal: Proposal) {
  return {
    kind: proposal.kind,
    merchant: proposal.merchant,
    amount: formatMoney(proposal.amount),
    currency: proposal.currency,
    // Only for a foreign currency: a NOK expense's content (and its Proposed event) stays as it was.
    ...(proposal.amountNok === null ? {} : { amountNok: formatMoney(proposal.amountNok) }),
    date: proposal.date,
    accountCode: proposal.accountCode,
    vatRate: proposal.vatRate,
    description: proposal.description,
    receipt: proposal.receipt ? { ...proposal.receipt } : null,
    thread: proposal.thread ? { ...proposal.thread } : null,
    resubmissionOf: proposal.resubmissionOf,
    ...bookkeepingContent(proposal),
  };
}
