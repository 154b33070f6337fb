import { randomUUID } from 'node:crypto';
import { ConcurrencyConflict, merchantSimilarity, SIMILAR_NAME_THRESHOLD, trigramSimilarity } from '@app/domain';
import { aPattern, describePatternStoreContract } from '@app/testing';
import type { Database } from '../database/database';
import { submissionRead } from '../testing/submission-read';
import { createCompany, openTestDatabase } from '../testing/test-database';
import { TypeOrmPatternStore } from './typeorm-pattern.store';

let database: Database;

beforeAll(async () => {
  database = await openTestDatabase();
});

afterAll(async () => {
  await database.close();
});

describePatternStoreContract('TypeOrmPatternStore', () => new TypeOrmPatternStore(database.dataSource.manager), {
  prepareCompany: async (companyId) => {
    await createCompany(database, companyId);
  },
});

describe('TypeOrmPatternStore', () => {
  let store: TypeOrmPatternStore;
  let company: string;

  beforeEach(async () => {
    store = new TypeOrmPatternStore(database.dataSource.manager);
    company = await createCompany(database);
  });

  it('finds the active pattern whatever the spelling of the VAT rate', async () => {
    const pattern = aPattern({ id: randomUUID(), companyId: company, vatRate: '25' });
    await store.save(pattern, null);

    expect(
      (await store.findActiveByKey(company, { merchantKey: 'spotify', accountCode: '6540', vatRate: '25.00' }))?.id,
    ).toBe(pattern.id);
  });

  it('refuses to update a pattern through another company', async () => {
    const other = await createCompany(database);
    const pattern = aPattern({ id: randomUUID(), companyId: company });
    await store.save(pattern, null);

    await expect(store.save({ ...pattern, companyId: other, approvals: 9, version: 2 }, 1)).rejects.toBeInstanceOf(
      ConcurrencyConflict,
    );
    expect((await store.findById(company, pattern.id))?.approvals).toBe(pattern.approvals);
  });

  it('refuses to un-retire a pattern whose key is active again', async () => {
    const retired = aPattern({ id: randomUUID(), companyId: company, retiredAt: new Date('2026-11-20T10:00:00.000Z') });
    await store.save(retired, null);
    await store.save(aPattern({ id: randomUUID(), companyId: company }), null);

    await expect(store.save({ ...retired, retiredAt: null, version: 2 }, 1)).rejects.toBeInstanceOf(
      ConcurrencyConflict,
    );
  });

  describe('with 100 000 patterns in one company', () => {
    let big: string;

    beforeAll(async () => {
      big = await createCompany(database);
      // One statement: merchant keys of two or three pseudo-words each, so that trigrams are
      // spread as in real merchant names, plus a few Spotify look-alikes and two chains' stores.
      await database.dataSource.query(
        `INSERT INTO patterns (id, company_id, merchant_key, merchant_name, account_code, vat_rate, approvals,
                               amount_count, amount_mean, amount_m2, amount_min, amount_max, verified, version,
                               created_at, updated_at, retired_at)
         SELECT $1 || '-' || i, $1,
                substr(md5(i::text), 1, 6) || ' ' || substr(md5((i * 7)::text), 1, 5)
                  || CASE WHEN i % 3 = 0 THEN ' ' || substr(md5((i * 13)::text), 1, 4) ELSE '' END,
                'Merchant ' || i, (4000 + i % 3000)::text, '25', 1, 1, 10000, 0, 10000, 10000, true, 1,
                now(), now(), CASE WHEN i % 10 = 0 THEN now() ELSE NULL END
           FROM generate_series(1, 100000) AS i`,
        [big],
      );
      for (const name of ['Spotify', 'Spotify Family', 'Spotifi', 'Kiwi Mini Pris', 'Rema 1000 Majorstuen']) {
        await new TypeOrmPatternStore(database.dataSource.manager).save(
          aPattern({ id: randomUUID(), companyId: big, merchantName: name }),
          null,
        );
      }
      await database.dataSource.query('ANALYZE patterns');
    }, 120_000);

    afterAll(async () => {
      await database.dataSource.query('DELETE FROM patterns WHERE company_id = $1', [big]);
    });

    it('reads the candidates of the exact key alone, and with the look-alikes of a key no pattern has', async () => {
      const exact = (await submissionRead(database.dataSource.manager, big, { merchantKey: 'spotify' })).candidates;
      const lookAlikes = (await submissionRead(database.dataSource.manager, big, { merchantKey: 'spotfy' })).candidates;

      expect(exact.map((p) => p.merchantKey)).toEqual(['spotify']);
      expect(lookAlikes.map((p) => p.merchantKey)).toEqual(expect.arrayContaining(['spotify', 'spotifi']));
      expect([...exact, ...lookAlikes].every((p) => p.companyId === big && p.retiredAt === null)).toBe(true);
    });

    it('finds the look-alikes the engine calls similar names down to trigram similarity 0.3: a typo, a name run together, another store', async () => {
      const lookAlikes = [
        ['spotfiy', 'spotify'],
        ['kiwiminipris', 'kiwi mini pris'],
        ['rema 1000 storo', 'rema 1000 majorstuen'],
      ];

      for (const [key, found] of lookAlikes) {
        // What a higher trigram threshold (or a search that skips the weaker trigram matches) would lose.
        expect(trigramSimilarity(key, found)).toBeLessThan(0.5);
        expect(merchantSimilarity(key, found)).toBeGreaterThanOrEqual(SIMILAR_NAME_THRESHOLD);
        const { candidates } = await submissionRead(database.dataSource.manager, big, { merchantKey: key });
        expect(candidates.map((p) => p.merchantKey)).toContain(found);
      }
    });

    /**
     * The scans of `patterns` by one submission's read (its candidate query): the backend's counts
     * of scans not yet flushed to the statistics, before and after it, in one transaction (they are
     * flushed between transactions only).
     */
    async function scansOf(key: string): Promise<{ seq: number; idx: number }> {
      return database.dataSource.transaction(async (tx) => {
        const counts = async () => {
          const [row] = (await tx.query(
            `SELECT seq_scan::int AS seq, idx_scan::int AS idx FROM pg_stat_xact_user_tables WHERE relname = 'patterns'`,
          )) as { seq: number; idx: number }[];
          return row;
        };
        const before = await counts();
        await submissionRead(tx, big, { merchantKey: key });
        const after = await counts();
        return { seq: after.seq - before.seq, idx: after.idx - before.idx };
      });
    }

    it('answers the candidate query from indexes, never a sequential scan of patterns', async () => {
      // EXPLAIN cannot see inside pattern_candidates(), the counts can.
      const scans = await scansOf('spotfy');

      expect(scans.seq).toBe(0);
      expect(scans.idx).toBeGreaterThanOrEqual(2);
    });

    it('answers an exact key with one index scan, without the trigram search', async () => {
      expect(await scansOf('spotify')).toEqual({ seq: 0, idx: 1 });
    });
  });
});
