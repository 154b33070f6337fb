import { isEventType, type ApiCall, type Channel, type DomainEvent, type ProposalStatus } from '@app/domain';
import { toNullableNumber } from '../shared/sql';
import type { EventRecord } from './event.entity';

/** The domain event a row holds. The row's `data` is the event's JSON-safe data as stored (jsonb). */
export function eventFromRecord(row: EventRecord): DomainEvent {
  return {
    id: row.id,
    type: row.type,
    status: row.status as ProposalStatus | null,
    proposalId: row.proposal_id,
    correlationId: row.correlation_id,
    sequence: row.sequence,
    occurredAt: new Date(row.occurred_at),
    actor: row.actor,
    company: row.company_id,
    channel: row.channel as Channel,
    provider: row.provider,
    api_calls: row.api_calls as ApiCall[],
    confidence: toNullableNumber(row.confidence),
    data: row.data,
  } as DomainEvent;
}

/**
 * Parameters of one event's row, in the column order of TypeOrmEventStore's INSERT (and the
 * submission's). Every event written passes here, so this is where its type is checked against the
 * domain's table (`EVENT_TYPE_TABLE`): the events table checks only the type's shape, so that a new
 * type needs no migration.
 */
export function eventParameters(event: DomainEvent): unknown[] {
  if (!isEventType(event.type)) throw new Error(`refusing to store an event of unknown type ${String(event.type)}`);
  return [
    event.id,
    event.company,
    event.correlationId,
    event.sequence,
    event.type,
    event.status,
    event.proposalId,
    event.actor,
    event.channel,
    event.provider,
    JSON.stringify(event.api_calls),
    event.confidence,
    JSON.stringify(event.data),
    event.occurredAt,
  ];
}
