import { Injectable } from '@nestjs/common';
import { Clock, DomainError } from '@app/domain';
import { IDEMPOTENCY_TTL_MS } from './idempotency-key';
import {
  IdempotencyStore,
  type IdempotencyRecord,
  type IdempotencyScope,
  type RecordedResponse,
} from './idempotency-store.port';
import { requestFingerprint } from './request-fingerprint';

/** The same key was sent with a different request (409 idempotency_conflict). */
export class IdempotencyConflict extends DomainError {
  constructor(key: string) {
    super(
      'idempotency_conflict',
      `Idempotency-Key "${key}" was already used with a different request body in the last 24 hours; use a new key for a new request`,
    );
  }
}

/** What the caller asks for: a key, and how the response to record is built from the result. */
export interface IdempotentRequest<R> {
  readonly key: string;
  /** The response the caller will send for `result`: what a retry with this key gets back. */
  readonly respond: (result: R) => RecordedResponse;
}

export type IdempotentOutcome<R> =
  { readonly replayed: false; readonly result: R } | { readonly replayed: true; readonly response: RecordedResponse };

/**
 * Applies an idempotency key around a piece of work, with the IdempotencyStore of the unit of work
 * that does the work, so that the key, the work and the recorded response commit together.
 */
@Injectable()
export class IdempotentExecution {
  constructor(private readonly clock: Clock) {}

  async run<R>(
    store: IdempotencyStore,
    request: IdempotentRequest<R> | null | undefined,
    scope: Omit<IdempotencyScope, 'key'>,
    body: unknown,
    work: () => Promise<R>,
  ): Promise<IdempotentOutcome<R>> {
    if (!request) return { replayed: false, result: await work() };
    const record = this.recordOf(request, scope, body);
    const claim = await store.claim(record);
    switch (claim.outcome) {
      case 'replay':
        return { replayed: true, response: claim.response };
      case 'conflict':
        throw new IdempotencyConflict(request.key);
      case 'claimed': {
        const result = await work();
        await store.complete(record, request.respond(result));
        return { replayed: false, result };
      }
    }
  }

  /** This use of the key: the request's fingerprint, now, and how long its outcome is kept. */
  recordOf(
    request: Pick<IdempotentRequest<unknown>, 'key'>,
    scope: Omit<IdempotencyScope, 'key'>,
    body: unknown,
  ): IdempotencyRecord {
    const now = this.clock.now();
    return {
      scope: { key: request.key, ...scope },
      requestHash: requestFingerprint(body),
      createdAt: now,
      expiresAt: new Date(now.getTime() + IDEMPOTENCY_TTL_MS),
    };
  }
}
