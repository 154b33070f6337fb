import { invalidField, type FieldErrorCollector } from '@app/domain';

/**
 * The fields a submission may have (api-contract §4.1), and those of its nested objects. Everything
 * else is refused as "not an allowed field", as the validation pipe refuses unknown fields of every
 * other body. The HTTP layer's SubmitProposalDto documents the same fields; a test keeps the two
 * equal.
 */
export const SUBMISSION_FIELDS = {
  '': [
    'kind',
    'merchant',
    'amount',
    'currency',
    'amountNok',
    'date',
    'accountCode',
    'vatRate',
    'description',
    'receipt',
    'thread',
    'resubmissionOf',
  ],
  receipt: ['filename', 'contentType', 'dataBase64'],
  thread: ['channel', 'threadId'],
} as const satisfies Record<string, readonly string[]>;

const ALLOWED = {
  '': new Set<string>(SUBMISSION_FIELDS['']),
  receipt: new Set<string>(SUBMISSION_FIELDS.receipt),
  thread: new Set<string>(SUBMISSION_FIELDS.thread),
};

/**
 * The body must be a JSON object; each unknown field, at the top or inside `receipt` or `thread`
 * (when those are objects: their other problems are the content's), is recorded in `errors`.
 * Throws ValidationFailed at once when the body is not an object: there is nothing else to check.
 *
 * Why not class-validator here: POST /v1/proposals is the hot path, and the domain already checks
 * every field's content (parseExpenseDetails, decodeReceipt). The validation pipe's copy of those
 * checks cost about 115 µs of the service's CPU per submission (docs/performance.md).
 */
export function refuseUnknownSubmissionFields(body: unknown, errors: FieldErrorCollector): void {
  if (!isObject(body)) invalidField('body', 'must be a JSON object');
  collectUnknown(body, ALLOWED[''], '', errors);
  for (const nested of ['receipt', 'thread'] as const) {
    const value = body[nested];
    if (isObject(value)) collectUnknown(value, ALLOWED[nested], `${nested}.`, errors);
  }
}

function collectUnknown(
  value: Record<string, unknown>,
  allowed: ReadonlySet<string>,
  prefix: string,
  errors: FieldErrorCollector,
): void {
  for (const key of Object.keys(value)) {
    if (!allowed.has(key)) errors.add(`${prefix}${key}`, `${prefix}${key} is not an allowed field`);
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
