import { EntitySchema } from 'typeorm';

/**
 * One row of the append-only `events` table (migrations 1763780000001, 1763780000007). The hash
 * chain lives in `event_seals` (EventSealEntity). The column `inserted_xid` (xid8, filled by its
 * default) is left out: TypeORM has no xid8 type, and only the sealer's raw SQL reads it.
 */
export interface EventRow {
  /** Global append order (bigserial): keyset pagination follows it. */
  position: string;
  id: string;
  companyId: string;
  correlationId: string;
  sequence: number;
  type: string;
  status: string | null;
  proposalId: string | null;
  actor: string;
  channel: string;
  provider: string | null;
  apiCalls: unknown;
  confidence: string | null;
  data: unknown;
  occurredAt: Date;
  recordedAt: Date;
}

export const EventEntity = new EntitySchema<EventRow>({
  name: 'Event',
  tableName: 'events',
  columns: {
    position: { type: 'bigint', generated: 'increment', unique: true },
    id: { type: 'text', primary: true },
    companyId: { type: 'text', name: 'company_id' },
    correlationId: { type: 'text', name: 'correlation_id' },
    sequence: { type: 'int' },
    type: { type: 'text' },
    status: { type: 'text', nullable: true },
    proposalId: { type: 'text', name: 'proposal_id', nullable: true },
    actor: { type: 'text' },
    channel: { type: 'text' },
    provider: { type: 'text', nullable: true },
    apiCalls: { type: 'jsonb', name: 'api_calls' },
    confidence: { type: 'numeric', nullable: true },
    data: { type: 'jsonb' },
    occurredAt: { type: 'timestamptz', name: 'occurred_at' },
    recordedAt: { type: 'timestamptz', name: 'recorded_at' },
  },
});

/** One row of the append-only `event_seals` table: an event's place in its company's hash chain. */
export interface EventSealRow {
  companyId: string;
  /** 1, 2, 3, … in seal order: the chain order. */
  chainIndex: string;
  eventId: string;
  /** The previous seal's hash; GENESIS_HASH at chain index 1. */
  prevHash: string;
  /** sha256(prevHash ‖ canonical JSON of the event), hex. */
  hash: string;
  sealedAt: Date;
}

export const EventSealEntity = new EntitySchema<EventSealRow>({
  name: 'EventSeal',
  tableName: 'event_seals',
  columns: {
    companyId: { type: 'text', name: 'company_id', primary: true },
    chainIndex: { type: 'bigint', name: 'chain_index', primary: true },
    eventId: { type: 'text', name: 'event_id', unique: true },
    prevHash: { type: 'text', name: 'prev_hash' },
    hash: { type: 'text' },
    sealedAt: { type: 'timestamptz', name: 'sealed_at' },
  },
});

/** The columns as selected by the adapter's raw SQL (snake_case, as the driver returns them). */
export interface EventRecord {
  position: string;
  id: string;
  company_id: string;
  correlation_id: string;
  sequence: number;
  type: string;
  status: string | null;
  proposal_id: string | null;
  actor: string;
  channel: string;
  provider: string | null;
  api_calls: unknown;
  confidence: string | null;
  data: unknown;
  occurred_at: Date;
}

const EVENT_COLUMN_NAMES = [
  'position',
  'id',
  'company_id',
  'correlation_id',
  'sequence',
  'type',
  'status',
  'proposal_id',
  'actor',
  'channel',
  'provider',
  'api_calls',
  'confidence',
  'data',
  'occurred_at',
] as const;

export const EVENT_COLUMNS = EVENT_COLUMN_NAMES.join(', ');

/** What an append writes, in `eventParameters` order: every column but the generated `position`. */
export const EVENT_INSERT_COLUMNS = EVENT_COLUMN_NAMES.filter((column) => column !== 'position');

/** EVENT_COLUMNS qualified by a table alias, for joins. */
export function eventColumnsOf(alias: string): string {
  return EVENT_COLUMN_NAMES.map((column) => `${alias}.${column}`).join(', ');
}
