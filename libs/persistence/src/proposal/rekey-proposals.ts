import type { EntityManager } from 'typeorm';
import { normalizeMerchant } from '@app/domain';
import { execute, select } from '../shared/sql';

const PAGE = 1000;

/**
 * Gives every stored proposal the merchant key normalizeMerchant gives its merchant today. The key
 * is derived data, like a pattern's (rekeyPatterns): the duplicate check reads earlier purchases of
 * the same merchant by it (ProposalRepository.findDuplicateCandidates), so after a change of the
 * function a migration calls this together with rekeyPatterns. Writes no event: the proposal's
 * content is unchanged. Runs in the caller's transaction, a page at a time; returns how many
 * proposals were given a new key.
 */
export async function rekeyProposals(manager: EntityManager): Promise<number> {
  let rekeyed = 0;
  for (let after = ''; ;) {
    const rows = await select<{ id: string; merchant: string; merchant_key: string }>(
      manager,
      `SELECT id, merchant, merchant_key FROM proposals WHERE id > $1 ORDER BY id LIMIT ${PAGE}`,
      [after],
    );
    const stale = rows
      .map((row) => ({ id: row.id, key: normalizeMerchant(row.merchant), old: row.merchant_key }))
      .filter((row) => row.key !== row.old);
    if (stale.length > 0) {
      const { affected } = await execute(
        manager,
        `UPDATE proposals p SET merchant_key = s.key
           FROM unnest($1::text[], $2::text[]) AS s (id, key) WHERE p.id = s.id`,
        [stale.map((row) => row.id), stale.map((row) => row.key)],
      );
      rekeyed += affected;
    }
    if (rows.length < PAGE) break;
    after = rows[rows.length - 1].id;
  }
  return rekeyed;
}
