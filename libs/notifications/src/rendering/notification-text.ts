import { type NotificationContent, type ReviewRoute, unknownKind } from '../message/notification';
import { money, percent, plural } from './format';

export const ROUTE_LABEL: Readonly<Record<ReviewRoute, string>> = {
  review_required: 'review required',
  review_recommended: 'review recommended',
};

/**
 * The one-paragraph plain-text summary of a notification: the webhook body's `text` (the agent
 * relays it) and, escaped, the Slack message's fallback text.
 */
export function renderText(content: NotificationContent): string {
  switch (content.kind) {
    case 'proposal_needs_review': {
      const p = content.payload;
      return (
        `Review needed: ${p.merchant}, ${money(p.amount, p.currency)}, ` +
        `${percent(p.confidence)} % confidence (${ROUTE_LABEL[p.route] ?? p.route}). Proposal ${p.proposalId}.`
      );
    }
    case 'proposal_auto_approved': {
      const p = content.payload;
      const booking = [
        p.accountCode ? `account ${p.accountCode}` : undefined,
        p.vatRate ? `VAT ${p.vatRate} %` : undefined,
      ].filter(Boolean);
      const when = p.executeAfter
        ? `It will be booked after ${p.executeAfter} unless a reviewer rejects it.`
        : 'It will be booked now.';
      return (
        `Auto-approved with ${percent(p.confidence)} % confidence: ${p.merchant}, ${money(p.amount, p.currency)}` +
        `${booking.length ? ` (${booking.join(', ')})` : ''}. ${when}`
      );
    }
    case 'proposal_rejected': {
      const p = content.payload;
      return (
        `Rejected: ${p.merchant}, ${money(p.amount, p.currency)}. Reason: ${p.reason}. ` +
        `You can resubmit it with corrections.`
      );
    }
    case 'execution_failed': {
      const p = content.payload;
      return (
        `Booking failed at ${p.provider}: ${p.merchant}, ${money(p.amount, p.currency)} ` +
        `(${p.errorCode}: ${p.errorMessage}). The proposal stays approved and can still be rejected. ` +
        `Proposal ${p.proposalId}.`
      );
    }
    case 'daily_check': {
      const p = content.payload;
      const missing = p.missingReceipts.length;
      const overdue = p.overdueInvoices.length;
      if (missing === 0 && overdue === 0) {
        return `Daily check ${p.date} (${p.provider}): no postings without a receipt since ${p.missingReceiptsFrom}, no overdue invoices.`;
      }
      return (
        `Daily check ${p.date} (${p.provider}): ${plural(missing, 'posting')} without a receipt since ` +
        `${p.missingReceiptsFrom}, ${plural(overdue, 'overdue invoice')}.`
      );
    }
    case 'provider_reauthorisation_needed': {
      const p = content.payload;
      return (
        `The ${p.provider} connection needs to be authorised again: ${p.reason}. ` +
        `An admin can reconnect it with POST /v1/config/providers/${p.provider}/connect.`
      );
    }
    default:
      return unknownKind(content);
  }
}
