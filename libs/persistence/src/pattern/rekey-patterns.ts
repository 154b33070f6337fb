import type { EntityManager } from 'typeorm';
import { normalizeMerchant } from '@app/domain';
import { execute, select } from '../shared/sql';

/** How a re-keying went: patterns given today's key, and those that kept their old one. */
export interface RekeyReport {
  readonly rekeyed: number;
  /** Active patterns whose new key, account and VAT rate an active twin already holds. */
  readonly kept: readonly { readonly id: string; readonly companyId: string; readonly key: string }[];
}

interface Row {
  id: string;
  company_id: string;
  merchant_name: string;
  merchant_key: string;
  approvals: number;
  retired: boolean;
}

const PAGE = 1000;

/**
 * Gives every stored pattern the key normalizeMerchant gives its merchant name today. A pattern's
 * key is derived data — normalizeMerchant(merchantName), computed when the name was last set — so
 * when the function changes, stored keys would no longer meet the keys of new proposals; a
 * migration calls this (and rekeyProposals) after every such change. Re-keying decides nothing about the rule (merchant,
 * account, VAT rate, who confirmed it), so it writes no event and keeps the version.
 *
 * Two patterns of one company may come to share a key, account and VAT rate ("Spotify" and the
 * statement's "SPOTIFY AB *P2B9C1X" learnt separately): the one with the most approvals takes the
 * new key; the other stays active under its old key — where it still scores as a look-alike, never
 * auto-approving — and an accountant retires it or merges it by hand. Retired patterns are
 * re-keyed always (the one-active-pattern rule does not bind them). Runs in the caller's
 * transaction; reads the table a page at a time.
 */
export async function rekeyPatterns(manager: EntityManager): Promise<RekeyReport> {
  const stale: (Row & { key: string })[] = [];
  for (let after = ''; ;) {
    const rows = await select<Row>(
      manager,
      `SELECT id, company_id, merchant_name, merchant_key, approvals, retired_at IS NOT NULL AS retired
         FROM patterns WHERE id > $1 ORDER BY id LIMIT ${PAGE}`,
      [after],
    );
    for (const row of rows) {
      const key = normalizeMerchant(row.merchant_name);
      if (key !== '' && key !== row.merchant_key) stale.push({ ...row, key });
    }
    if (rows.length < PAGE) break;
    after = rows[rows.length - 1].id;
  }
  // Active before retired, then the most approvals first: the strongest pattern wins a shared key.
  stale.sort((a, b) => Number(a.retired) - Number(b.retired) || b.approvals - a.approvals || compare(a.id, b.id));
  let rekeyed = 0;
  const kept: { id: string; companyId: string; key: string }[] = [];
  for (const row of stale) {
    const { affected } = await execute(
      manager,
      `UPDATE patterns p SET merchant_key = $2
        WHERE p.id = $1
          AND (p.retired_at IS NOT NULL OR NOT EXISTS (
                SELECT 1 FROM patterns t
                 WHERE t.company_id = p.company_id AND t.merchant_key = $2 AND t.account_code = p.account_code
                   AND t.vat_rate = p.vat_rate AND t.retired_at IS NULL AND t.id <> p.id))`,
      [row.id, row.key],
    );
    if (affected === 1) rekeyed++;
    else kept.push({ id: row.id, companyId: row.company_id, key: row.merchant_key });
  }
  return { rekeyed, kept };
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
