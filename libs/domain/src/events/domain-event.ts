import type { Channel } from '../identity/identity';
import type { ApiCall } from '../provider/api-call';
import { ProposalStatus } from '../proposal/proposal-status';
import { Route } from '../confidence/route';
import type { CorrectionsJson } from '../proposal/corrections';

/**
 * Every event type, keyed by type, with what people read about it: `label`, its name in the
 * console; `data`, its `data` fields as the API describes them (docs/api.md §4.3). The one place
 * that lists the types: the API's enums and description, the console's headings and the write-time
 * check (`isEventType`, in the event store's mapper) read it. Adding a type is a row here, its data
 * interface and a line in `EventDataByType` below, and its case in the HTTP mapper
 * (apps/accounting-api/src/events/event.mapper.ts). The events table checks only the type's shape:
 * PascalCase letters, at most 64.
 */
export const EVENT_TYPE_TABLE = {
  Proposed: {
    label: 'Proposed',
    data: 'kind, merchant, merchantKey, amount, currency, date, accountCode, vatRate, description, receipt, thread, resubmissionOf, route, reasons',
  },
  Approved: { label: 'Approved', data: 'auto, corrections, accountCode, vatRate, executeAfter' },
  Rejected: { label: 'Rejected', data: 'reason' },
  Executed: { label: 'Executed', data: 'bookingId' },
  ExecutionFailed: { label: 'Execution failed', data: 'message' },
  ReimbursementPaid: { label: 'Reimbursement paid', data: 'paidOn, reference, amountNok' },
  PatternSaved: {
    label: 'Pattern saved',
    data: 'cause: approval | created | edited | auto_approval_executed | suggested | suggestion_confirmed, pattern',
  },
  PatternRetired: { label: 'Pattern retired', data: 'pattern' },
} as const satisfies Record<string, { readonly label: string; readonly data: string }>;

export type EventType = keyof typeof EVENT_TYPE_TABLE;

/** The event types, in the table's order. */
export const EVENT_TYPES = Object.keys(EVENT_TYPE_TABLE) as readonly EventType[];

export function isEventType(value: unknown): value is EventType {
  return typeof value === 'string' && Object.hasOwn(EVENT_TYPE_TABLE, value);
}

/** "per type: Proposed {kind, …}; Approved {…}; …": the `data` of each type, for the API's description. */
export function describeEventData(): string {
  return `per type: ${EVENT_TYPES.map((type) => `${type} {${EVENT_TYPE_TABLE[type].data}}`).join('; ')}`;
}

/**
 * The audit identity chain of spec §2.2, with the spec's own field names (they are kept on the wire
 * too, docs/api.md §1). `provider` is null when no provider was involved (pattern events, or a
 * company without a connected provider).
 */
export interface IdentityChain {
  readonly actor: string;
  readonly company: string;
  readonly channel: Channel;
  readonly provider: string | null;
  readonly api_calls: readonly ApiCall[];
}

/** The proposal content as submitted, in wire form: money as a decimal string. */
export interface ProposedData {
  readonly kind: string;
  readonly merchant: string;
  readonly merchantKey: string;
  readonly amount: string;
  readonly currency: string;
  readonly date: string;
  readonly accountCode: string;
  readonly vatRate: string;
  readonly description: string | null;
  readonly receipt: { filename: string; contentType: string; sizeBytes: number; sha256: string } | null;
  readonly thread: { channel: Channel; threadId: string } | null;
  readonly resubmissionOf: string | null;
  readonly route: Route;
  readonly reasons: readonly string[];
  /**
   * The bookkeeping fields (absent on events recorded before proposals carried them: those were
   * single-line NOK expenses paid from the bank, domestic VAT).
   */
  readonly paidWith?: string | null;
  readonly vatTreatment?: string;
  readonly lines?: readonly { accountCode: string; vatRate: string; amount: string; description: string | null }[];
  readonly supplier?: {
    name: string;
    organizationNumber: string;
    bankAccount: string | null;
    kid: string | null;
  } | null;
  readonly invoiceNumber?: string | null;
  readonly dueDate?: string | null;
  readonly departmentId?: string | null;
}

/** A posting in an event: money as a decimal string of NOK, debit +, credit −. */
export interface PostingData {
  readonly accountCode: string;
  readonly amount: string;
  readonly vatCode: string | null;
  readonly party: {
    kind: 'supplier' | 'employee';
    name: string;
    organizationNumber?: string | null;
    providerId?: string | null;
  } | null;
  readonly description: string | null;
  readonly generated: boolean;
  readonly invoiceNumber?: string | null;
  readonly dueDate?: string | null;
  readonly kid?: string | null;
}

export interface ApprovedData {
  /** True for the ConfidenceEngine's auto-approval, false for a reviewer's. */
  readonly auto: boolean;
  /** What the reviewer changed, as sent; null when nothing was sent. */
  readonly corrections: CorrectionsJson | null;
  /** The values that will be booked, after corrections. */
  readonly accountCode: string;
  readonly vatRate: string;
  /** RFC 3339; not executed before it. */
  readonly executeAfter: string;
}

export interface RejectedData {
  readonly reason: string;
}

export interface ExecutedData {
  readonly bookingId: string;
  /** The postings planned and read back from the provider after booking (absent on older events). */
  readonly readBack?: {
    readonly planned: readonly PostingData[] | null;
    readonly booked: readonly PostingData[] | null;
    readonly differences: readonly string[];
    readonly error: string | null;
  };
}

export interface ExecutionFailedData {
  readonly message: string;
}

/** An employee's outlay marked as paid back to them (the payout itself is not booked by the service). */
export interface ReimbursementPaidData {
  /** YYYY-MM-DD: the day the employee was paid. */
  readonly paidOn: string;
  /** The payout's reference (a bank transfer's), when given. */
  readonly reference: string | null;
  /** What the employee was owed, NOK as a decimal string. */
  readonly amountNok: string;
}

/** A pattern as recorded in its events (dates are on the event, not repeated here). */
export interface PatternSnapshot {
  readonly id: string;
  readonly merchantKey: string;
  readonly merchantName: string;
  readonly accountCode: string;
  readonly vatRate: string;
  /** Absent in events written before patterns learnt them. */
  readonly vatTreatment?: string | null;
  readonly supplierOrganizationNumber?: string | null;
  readonly approvals: number;
  readonly verified: boolean;
  readonly amountStats: {
    readonly count: number;
    readonly mean: number;
    readonly m2: number;
    readonly min: number | null;
    readonly max: number | null;
  };
}

export interface PatternSavedData {
  /**
   * Why it was saved: learnt from a review approval, created or edited by an accountant, one more
   * amount observed because an auto-approval resting on it was executed (never rejected), suggested
   * by the history import, or a suggestion confirmed by an accountant.
   */
  readonly cause: 'approval' | 'created' | 'edited' | 'auto_approval_executed' | 'suggested' | 'suggestion_confirmed';
  readonly pattern: PatternSnapshot;
}

export interface PatternRetiredData {
  readonly pattern: PatternSnapshot;
}

/** Each type's `data` (`DomainEventOf` indexes it by type: a type without its line here does not compile). */
interface EventDataByType {
  Proposed: ProposedData;
  Approved: ApprovedData;
  Rejected: RejectedData;
  Executed: ExecutedData;
  ExecutionFailed: ExecutionFailedData;
  ReimbursementPaid: ReimbursementPaidData;
  PatternSaved: PatternSavedData;
  PatternRetired: PatternRetiredData;
}

/**
 * One immutable event (docs/api.md §4.3). Its `data` is JSON-safe (no Date, no bigint) so that
 * persistence can store and hash it as it is.
 *
 * - Proposal events: `correlationId` is the proposal's chain (a resubmission joins the chain of the
 *   proposal it corrects), `proposalId` the proposal, `status` the status the event leads to
 *   (ExecutionFailed leads to APPROVED: the proposal stays approved), `confidence` the proposal's
 *   score.
 * - Pattern events: each pattern is its own chain, `correlationId` = the pattern's id, `sequence`
 *   its version; `status` and `confidence` are null (patterns have no proposal status), and
 *   `proposalId` names the approved proposal that taught the pattern, or null when an accountant
 *   created, edited or retired it directly.
 *
 * `sequence` is the event's position in its chain, starting at 1, without gaps; the event store
 * refuses a second event at a taken position (ConcurrencyConflict).
 */
export type DomainEventOf<T extends EventType> = IdentityChain & {
  readonly id: string;
  readonly type: T;
  readonly status: ProposalStatus | null;
  readonly proposalId: string | null;
  readonly correlationId: string;
  readonly sequence: number;
  readonly occurredAt: Date;
  readonly confidence: number | null;
  readonly data: EventDataByType[T];
};

export type ProposedEvent = DomainEventOf<'Proposed'>;
export type ApprovedEvent = DomainEventOf<'Approved'>;
export type RejectedEvent = DomainEventOf<'Rejected'>;
export type ExecutedEvent = DomainEventOf<'Executed'>;
export type ExecutionFailedEvent = DomainEventOf<'ExecutionFailed'>;
export type ReimbursementPaidEvent = DomainEventOf<'ReimbursementPaid'>;
export type PatternSavedEvent = DomainEventOf<'PatternSaved'>;
export type PatternRetiredEvent = DomainEventOf<'PatternRetired'>;

export type ProposalEvent =
  ProposedEvent | ApprovedEvent | RejectedEvent | ExecutedEvent | ExecutionFailedEvent | ReimbursementPaidEvent;
export type PatternEvent = PatternSavedEvent | PatternRetiredEvent;
export type DomainEvent = ProposalEvent | PatternEvent;
