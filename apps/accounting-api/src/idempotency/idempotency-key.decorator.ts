import { applyDecorators, createParamDecorator, type ExecutionContext } from '@nestjs/common';
import { ApiConflictResponse, ApiHeader } from '@nestjs/swagger';
import type { Request } from 'express';
import { IDEMPOTENCY_KEY_HEADER, parseIdempotencyKey } from '@app/application';
import { ProblemDto } from '../http/problem.dto';

/** The request's `Idempotency-Key` (null when it sent none); a malformed one is 400 validation_failed. */
export const IdempotencyKey = createParamDecorator((_: unknown, context: ExecutionContext): string | null =>
  parseIdempotencyKey(context.switchToHttp().getRequest<Request>().headers[IDEMPOTENCY_KEY_HEADER.toLowerCase()]),
);

/** Response header set on a replayed response. */
export const IDEMPOTENT_REPLAYED_HEADER = 'Idempotent-Replayed';

/** Documents an operation that honours Idempotency-Key (docs/api.md §1). */
export function ApiIdempotent() {
  return applyDecorators(
    ApiHeader({
      name: IDEMPOTENCY_KEY_HEADER,
      required: false,
      description:
        '1–255 printable ASCII characters, scoped to company + actor, kept 24 h. A retry with the same key and the same body ' +
        `gets the first response again (same status and body, with \`${IDEMPOTENT_REPLAYED_HEADER}: true\`); the same key with a ` +
        'different body is 409 idempotency_conflict. Of concurrent requests with one key, one runs and the others wait for it and ' +
        'get its response. A request that fails leaves the key unused.',
    }),
    ApiConflictResponse({
      type: ProblemDto,
      description:
        'idempotency_conflict: the key was used with a different body; invalid_transition: the proposal named in resubmissionOf is not REJECTED',
    }),
  );
}
