import { DAILY_CHECKS, type DailyCheckRendering } from '@app/application';
import { routeLabel } from '@app/domain';
import { type DailyCheckPayload, type NotificationContent, unknownKind } from '../message/notification';
import { money, percent } from './format';

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
        `${percent(p.confidence)} % confidence (${routeLabel(p.route) ?? p.route}). Proposal ${p.proposalId}.`
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
      const parts = dailyCheckParts(p);
      const clauses = parts.every((part) => part.listed === 0)
        ? parts.map((part) => part.allClear)
        : parts.map((part) => part.summary);
      return `Daily check ${p.date} (${p.provider}): ${clauses.join(', ')}.`;
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

/** Each check of DAILY_CHECKS whose results the message carries, rendered, in the list's order. */
export function dailyCheckParts(payload: DailyCheckPayload): DailyCheckRendering[] {
  const fields = payload as unknown as Readonly<Record<string, unknown>>;
  return DAILY_CHECKS.flatMap((check) => check.render(fields) ?? []);
}
