import { EntitySchema } from 'typeorm';

/** One row of `idempotency_keys` (migration 1763790000050). */
export interface IdempotencyKeyRow {
  companyId: string;
  actor: string;
  idempotencyKey: string;
  requestHash: string;
  responseStatus: number | null;
  responseBody: unknown;
  createdAt: Date;
  expiresAt: Date;
}

export const IdempotencyKeyEntity = new EntitySchema<IdempotencyKeyRow>({
  name: 'IdempotencyKey',
  tableName: 'idempotency_keys',
  columns: {
    companyId: { type: 'text', name: 'company_id', primary: true },
    actor: { type: 'text', primary: true },
    idempotencyKey: { type: 'text', name: 'idempotency_key', primary: true },
    requestHash: { type: 'text', name: 'request_hash' },
    responseStatus: { type: 'int', name: 'response_status', nullable: true },
    responseBody: { type: 'json', name: 'response_body', nullable: true },
    createdAt: { type: 'timestamptz', name: 'created_at' },
    expiresAt: { type: 'timestamptz', name: 'expires_at' },
  },
});
