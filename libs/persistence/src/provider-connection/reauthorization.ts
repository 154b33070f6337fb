import type { EntityManager } from 'typeorm';
import type { IdGenerator } from '@app/domain';
import { notification } from '@app/notifications';
import { TypeOrmOutboxRepository } from '../outbox/typeorm-outbox.repository';
import { execute } from '../shared/sql';

/**
 * Marks a company's connection as needing re-authorisation and, only when that changes its status,
 * tells the company's review channel (`provider_reauthorisation_needed`) through the outbox, in the
 * same transaction: the admin learns once, not on every refused call.
 */
export async function markNeedsReauthorization(
  manager: EntityManager,
  companyId: string,
  reason: string,
  now: Date,
  ids: IdGenerator,
): Promise<void> {
  const { rows: changed } = await execute<{ provider: string }>(
    manager,
    `UPDATE provider_connections
        SET status = 'needs_reauthorization', reauthorization_reason = $2, updated_at = $3
      WHERE company_id = $1 AND status <> 'needs_reauthorization'
      RETURNING provider`,
    [companyId, reason.slice(0, 500), now],
  );
  const provider = changed[0]?.provider;
  if (provider === undefined) return;
  await new TypeOrmOutboxRepository(manager).enqueue([
    {
      ...notification(companyId, 'provider_reauthorisation_needed', { provider, reason: reason.slice(0, 500) }),
      id: ids.next(),
      createdAt: now,
    },
  ]);
}
