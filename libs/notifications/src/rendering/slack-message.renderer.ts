import { routeLabel } from '@app/domain';
import { type NotificationContent, type ProposalSummary, unknownKind } from '../message/notification';
import { escapeMrkdwn, money, mrkdwnLink, percent, truncate } from './format';
import { dailyCheckParts, renderText } from './notification-text';

/** The subset of Slack Block Kit this service sends. */
export interface MrkdwnText {
  type: 'mrkdwn';
  text: string;
}

export type SlackBlock =
  | { type: 'section'; text: MrkdwnText; fields?: MrkdwnText[] }
  | { type: 'context'; elements: MrkdwnText[] }
  | { type: 'divider' };

/** The body POSTed to a Slack incoming webhook. */
export interface SlackMessage {
  /** Fallback and notification text (mrkdwn). */
  text: string;
  blocks: SlackBlock[];
}

/** Slack's limits: section text 3000, a field 2000, 10 fields, 50 blocks. */
const SECTION_MAX = 3000;
const FIELD_MAX = 2000;
const LIST_MAX = 15;

const md = (text: string, max = SECTION_MAX): MrkdwnText => ({ type: 'mrkdwn', text: truncate(text, max) });
const section = (text: string, fields?: MrkdwnText[]): SlackBlock =>
  fields?.length
    ? { type: 'section', text: md(text), fields: fields.slice(0, 10) }
    : { type: 'section', text: md(text) };
const context = (text: string): SlackBlock => ({ type: 'context', elements: [md(text)] });
const field = (label: string, value: string | undefined): MrkdwnText | undefined =>
  value === undefined || value === '' ? undefined : md(`*${label}*\n${escapeMrkdwn(value)}`, FIELD_MAX);
const fields = (...items: (MrkdwnText | undefined)[]): MrkdwnText[] => items.filter((f): f is MrkdwnText => !!f);

function proposalFields(p: ProposalSummary): (MrkdwnText | undefined)[] {
  return [
    field('Merchant', p.merchant),
    field('Amount', money(p.amount, p.currency)),
    field('Date', p.date),
    field('Account', p.accountCode),
    field('VAT', p.vatRate === undefined ? undefined : `${p.vatRate} %`),
    field('Description', p.description),
  ];
}

function proposalContext(p: ProposalSummary): SlackBlock {
  return context(`Proposal \`${escapeMrkdwn(p.proposalId)}\` · correlation \`${escapeMrkdwn(p.correlationId)}\``);
}

function bulletList(title: string, lines: string[]): string {
  const shown = lines.slice(0, LIST_MAX).map((line) => `• ${line}`);
  if (lines.length > LIST_MAX) shown.push(`…and ${lines.length - LIST_MAX} more`);
  return `*${title}*\n${shown.join('\n')}`;
}

function blocksFor(content: NotificationContent): SlackBlock[] {
  switch (content.kind) {
    case 'proposal_needs_review': {
      const p = content.payload;
      return [
        section(
          `:mag: *Review needed* for ${mrkdwnLink(p.reviewUrl, `proposal ${p.proposalId}`)}: ` +
            `${percent(p.confidence)} % confidence, ${routeLabel(p.route) ?? escapeMrkdwn(String(p.route))}.`,
          fields(
            ...proposalFields(p),
            field('Confidence', `${percent(p.confidence)} %`),
            field('Submitted by', p.submittedBy),
          ),
        ),
        ...(p.reasons.length ? [section(bulletList('Reasons', p.reasons.map(escapeMrkdwn)))] : []),
        proposalContext(p),
      ];
    }
    case 'proposal_auto_approved': {
      const p = content.payload;
      return [
        section(`:white_check_mark: ${escapeMrkdwn(renderText(content))}`, fields(...proposalFields(p))),
        ...(p.reasons.length ? [section(bulletList('Why', p.reasons.map(escapeMrkdwn)))] : []),
        proposalContext(p),
      ];
    }
    case 'proposal_rejected': {
      const p = content.payload;
      return [
        section(
          `:x: *Rejected*: ${escapeMrkdwn(p.merchant)}, ${escapeMrkdwn(money(p.amount, p.currency))}\n` +
            `*Reason:* ${escapeMrkdwn(p.reason)}\nYou can resubmit it with corrections.`,
          fields(field('Rejected by', p.rejectedBy)),
        ),
        proposalContext(p),
      ];
    }
    case 'execution_failed': {
      const p = content.payload;
      return [
        section(
          `:warning: *Booking failed* at ${escapeMrkdwn(p.provider)} for ` +
            `${mrkdwnLink(p.reviewUrl, `proposal ${p.proposalId}`)}. The proposal stays approved and can still be rejected.\n` +
            `*Error:* \`${escapeMrkdwn(p.errorCode)}\` ${escapeMrkdwn(p.errorMessage)}`,
          fields(...proposalFields(p)),
        ),
        proposalContext(p),
      ];
    }
    case 'daily_check': {
      const p = content.payload;
      const parts = dailyCheckParts(p);
      const blocks: SlackBlock[] = [section(`:calendar: ${escapeMrkdwn(renderText(content))}`)];
      for (const part of parts) {
        if (part.lines.length) {
          blocks.push(
            section(
              bulletList(
                escapeMrkdwn(part.heading),
                part.lines.map((line) => escapeMrkdwn(line)),
              ),
            ),
          );
        }
      }
      blocks.push(context([escapeMrkdwn(p.provider), ...parts.map((part) => escapeMrkdwn(part.tally))].join(' · ')));
      return blocks;
    }
    case 'provider_reauthorisation_needed':
      return [section(`:electric_plug: ${escapeMrkdwn(renderText(content))}`)];
    default:
      return unknownKind(content);
  }
}

/** A Slack incoming-webhook message: escaped mrkdwn fallback text plus Block Kit blocks. */
export function renderSlackMessage(content: NotificationContent): SlackMessage {
  return { text: truncate(escapeMrkdwn(renderText(content)), SECTION_MAX), blocks: blocksFor(content) };
}
