/**
 * What the service tells people, independent of how it is delivered (docs/api.md §4.5).
 *
 * A notification is a `kind` with its typed `payload`, addressed to one of a company's
 * `target`s. Money stays a decimal string (`"1249.50"`) and instants RFC 3339 strings, exactly as
 * in the public contract, because payloads are stored as JSON in the outbox and sent on as such.
 */

/** Where a notification goes; resolved against the company's settings at delivery time. */
export type NotificationTarget = 'review' | 'user_thread' | 'invoices';

export const NOTIFICATION_TARGETS: readonly NotificationTarget[] = ['review', 'user_thread', 'invoices'];

/** The chat thread a proposal came from, as sent in `POST /proposals` (`thread`). */
export interface ChatThread {
  channel: string;
  threadId: string;
}

/** The proposal facts every proposal notification carries. */
export interface ProposalSummary {
  proposalId: string;
  correlationId: string;
  merchant: string;
  /** Decimal string with at most 2 fraction digits. */
  amount: string;
  /** ISO 4217 code. */
  currency: string;
  /** `YYYY-MM-DD`, when known. */
  date?: string;
  accountCode?: string;
  /** Percentage as a decimal string, e.g. `"25"`. */
  vatRate?: string;
  description?: string;
}

export type ReviewRoute = 'review_recommended' | 'review_required';

/** A low-confidence proposal waiting for a reviewer → the review channel. */
export interface ProposalNeedsReviewPayload extends ProposalSummary {
  /** 0..1 */
  confidence: number;
  route: ReviewRoute;
  reasons: string[];
  /** The submitter (`sub` of the token). */
  submittedBy: string;
  /** A link to the proposal in the review tool, when the service knows one. */
  reviewUrl?: string;
}

/** Auto-approval, reported to the requesting user with the confidence as a percentage. */
export interface ProposalAutoApprovedPayload extends ProposalSummary {
  /** 0..1 */
  confidence: number;
  reasons: string[];
  /** When execution starts unless someone rejects first; null when executed without delay. */
  executeAfter: string | null;
  /** The requesting user (`sub`). */
  actor: string;
  thread: ChatThread | null;
}

/** A rejection, sent to the requesting user with its reason. */
export interface ProposalRejectedPayload extends ProposalSummary {
  reason: string;
  rejectedBy: string;
  /** The requesting user (`sub`). */
  actor: string;
  thread: ChatThread | null;
}

/** A permanent execution failure → the review channel; the proposal stays APPROVED. */
export interface ExecutionFailedPayload extends ProposalSummary {
  provider: string;
  errorCode: string;
  errorMessage: string;
  reviewUrl?: string;
}

export interface MissingReceiptItem {
  /** The provider's id of the posting or voucher. */
  id: string;
  date: string;
  description: string;
  amount: string;
  currency: string;
}

export interface OverdueInvoiceItem {
  id: string;
  invoiceNumber: string;
  customer: string;
  dueDate: string;
  outstanding: string;
  currency: string;
}

/**
 * The daily check's results → the invoices channel: the day and provider, then the fields each
 * check of DAILY_CHECKS (@app/application) writes, in the list's order; the renderers ask each
 * check to render its own. The fields below are the two checks' of the contract (docs/api.md §4.6).
 */
export interface DailyCheckPayload {
  /** The day the check ran for, `YYYY-MM-DD`. */
  date: string;
  provider: string;
  /** The start of the missing-receipts window, `YYYY-MM-DD`. */
  missingReceiptsFrom: string;
  missingReceipts: MissingReceiptItem[];
  overdueInvoices: OverdueInvoiceItem[];
}

/** The provider connection no longer works (refresh token revoked or expired). */
export interface ProviderReauthorisationNeededPayload {
  provider: string;
  reason: string;
}

/** A kind together with its payload: the discriminated union every renderer switches over. */
export type NotificationContent =
  | { kind: 'proposal_needs_review'; payload: ProposalNeedsReviewPayload }
  | { kind: 'proposal_auto_approved'; payload: ProposalAutoApprovedPayload }
  | { kind: 'proposal_rejected'; payload: ProposalRejectedPayload }
  | { kind: 'execution_failed'; payload: ExecutionFailedPayload }
  | { kind: 'daily_check'; payload: DailyCheckPayload }
  | { kind: 'provider_reauthorisation_needed'; payload: ProviderReauthorisationNeededPayload };

export type NotificationKind = NotificationContent['kind'];

export type PayloadOf<K extends NotificationKind> = Extract<NotificationContent, { kind: K }>['payload'];

export const NOTIFICATION_KINDS: readonly NotificationKind[] = [
  'proposal_needs_review',
  'proposal_auto_approved',
  'proposal_rejected',
  'execution_failed',
  'daily_check',
  'provider_reauthorisation_needed',
];

/** Where each kind goes unless its producer says otherwise (docs/api.md §4.5, spec §6.3). */
export const DEFAULT_TARGET: Readonly<Record<NotificationKind, NotificationTarget>> = {
  proposal_needs_review: 'review',
  proposal_auto_approved: 'user_thread',
  proposal_rejected: 'user_thread',
  execution_failed: 'review',
  daily_check: 'invoices',
  provider_reauthorisation_needed: 'review',
};

/** A notification addressed to one company's target: what a producer hands to the outbox. */
export type Notification = NotificationContent & {
  companyId: string;
  target: NotificationTarget;
};

/** Builds a notification with the kind's default target. */
export function notification<K extends NotificationKind>(
  companyId: string,
  kind: K,
  payload: PayloadOf<K>,
  target: NotificationTarget = DEFAULT_TARGET[kind],
): Notification {
  return { companyId, target, kind, payload } as Notification;
}

/** The chat thread a notification answers in, for kinds that have one. */
export function threadOf(content: NotificationContent): ChatThread | null {
  switch (content.kind) {
    case 'proposal_auto_approved':
    case 'proposal_rejected':
      return content.payload.thread ?? null;
    case 'proposal_needs_review':
    case 'execution_failed':
    case 'daily_check':
    case 'provider_reauthorisation_needed':
      return null;
  }
}

/** Thrown by renderers for a stored row whose kind this version does not know. */
export class UnknownNotificationKind extends Error {
  constructor(readonly kind: string) {
    super(`unknown notification kind: ${kind}`);
    this.name = 'UnknownNotificationKind';
  }
}

/** The default branch of an exhaustive switch over NotificationContent. */
export function unknownKind(content: never): never {
  throw new UnknownNotificationKind(String((content as { kind?: unknown }).kind));
}
