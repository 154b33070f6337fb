import { createHash, createHmac } from 'node:crypto';
import type { DomainEvent } from '@app/domain';

/** The `prev_hash` of a company's first event. */
export const GENESIS_HASH = '0'.repeat(64);

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/**
 * Canonical JSON: object keys sorted recursively, no whitespace, dates as ISO-8601 strings,
 * `undefined` members left out (as JSON.stringify and jsonb do). Equal values always give the
 * same text, whatever the key order they were built or stored in.
 */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(canonicalize(value));
}

function canonicalize(value: unknown): Json {
  if (value === null || value === undefined) return null;
  if (value instanceof Date) return value.toISOString();
  if (Array.isArray(value)) return value.map((item) => canonicalize(item));
  if (typeof value === 'object') {
    const sorted: { [key: string]: Json } = {};
    for (const key of Object.keys(value).sort()) {
      const member = (value as Record<string, unknown>)[key];
      if (member !== undefined) sorted[key] = canonicalize(member);
    }
    return sorted;
  }
  if (typeof value === 'number' || typeof value === 'string' || typeof value === 'boolean') return value;
  throw new TypeError(`cannot hash a ${typeof value} in an event`);
}

/**
 * Exactly the fields of docs/api.md §4.3 an event consists of, picked explicitly so that a stray
 * property on the object handed to `append` can never make the stored hash differ from the one
 * `verifyChain` recomputes from the row.
 */
function hashedContent(event: DomainEvent): Record<string, unknown> {
  return {
    id: event.id,
    type: event.type,
    status: event.status,
    proposalId: event.proposalId,
    correlationId: event.correlationId,
    sequence: event.sequence,
    occurredAt: event.occurredAt,
    actor: event.actor,
    company: event.company,
    channel: event.channel,
    provider: event.provider,
    api_calls: event.api_calls,
    confidence: event.confidence,
    data: event.data,
  };
}

/**
 * The unkeyed link of the chains sealed before they were keyed (key version 0):
 * hash = hex(sha256(prev_hash bytes ‖ UTF-8 canonical JSON of the event)). Anyone who can write to
 * the database can recompute it, which is why new links are keyed (`keyedEventHash`).
 */
export function eventHash(prevHash: string, event: DomainEvent): string {
  return createHash('sha256')
    .update(Buffer.from(prevHash, 'hex'))
    .update(canonicalJson(hashedContent(event)), 'utf8')
    .digest('hex');
}

/**
 * A keyed link: hash = hex(HMAC-SHA256(chain key, prev_hash bytes ‖ UTF-8 canonical JSON of the
 * event)). The chain key is wrapped by the KMS and never stored in the clear, so whoever rewrites
 * an event in the database cannot compute the hash that would cover the change.
 */
export function keyedEventHash(key: Uint8Array, prevHash: string, event: DomainEvent): string {
  return createHmac('sha256', key)
    .update(Buffer.from(prevHash, 'hex'))
    .update(canonicalJson(hashedContent(event)), 'utf8')
    .digest('hex');
}

/** A link's hash under its key version: 0 is the unkeyed legacy link, 1… a chain key. */
export function linkHash(key: Uint8Array | null, prevHash: string, event: DomainEvent): string {
  return key === null ? eventHash(prevHash, event) : keyedEventHash(key, prevHash, event);
}

/**
 * The MAC of an anchor: it pins a company's unkeyed links (those sealed before the chain was keyed)
 * by their count and the last one's hash, so that they can be neither extended, shortened nor
 * recomputed without the key.
 */
export function anchorMac(key: Uint8Array, companyId: string, chainIndex: number, hash: string): string {
  return createHmac('sha256', key)
    .update(canonicalJson({ anchor: 'accounting-api/event-chain-anchor/v1', companyId, chainIndex, hash }), 'utf8')
    .digest('hex');
}
