import { formatMoney, type DomainEvent, type PatternSnapshot } from '@app/domain';
import type { EventDto } from './event.dto';

/** A pattern as events show it: amounts as decimal strings (the running variance stays inside). */
function patternSnapshotJson(pattern: PatternSnapshot) {
  const { amountStats, ...rest } = pattern;
  return { ...rest, amounts: amountsJson(amountStats) };
}

/** Observed amounts of a pattern, as decimal strings; null until the first observation. */
export function amountsJson(stats: PatternSnapshot['amountStats']) {
  return {
    count: stats.count,
    mean: stats.count === 0 ? null : formatMoney(Math.round(stats.mean)),
    min: stats.min === null ? null : formatMoney(stats.min),
    max: stats.max === null ? null : formatMoney(stats.max),
  };
}

function dataJson(event: DomainEvent): Record<string, unknown> {
  switch (event.type) {
    case 'PatternSaved':
      return { cause: event.data.cause, pattern: patternSnapshotJson(event.data.pattern) };
    case 'PatternRetired':
      return { pattern: patternSnapshotJson(event.data.pattern) };
    case 'Proposed':
    case 'Approved':
    case 'Rejected':
    case 'Executed':
    case 'ExecutionFailed':
    case 'ReimbursementPaid':
      return { ...event.data };
  }
}

/** An event as the contract shows it (§4.3). */
export function eventJson(event: DomainEvent): EventDto {
  return {
    id: event.id,
    type: event.type,
    status: event.status,
    proposalId: event.proposalId,
    correlationId: event.correlationId,
    sequence: event.sequence,
    occurredAt: event.occurredAt.toISOString(),
    actor: event.actor,
    company: event.company,
    channel: event.channel,
    provider: event.provider,
    api_calls: event.api_calls.map(({ method, path, status }) => ({ method, path, status })),
    confidence: event.confidence,
    data: dataJson(event),
  };
}
