import { ConcurrencyConflict, Pattern, PatternStore } from '@app/domain';
import { aPattern } from '../mothers/pattern.mother';
import { companies, ContractOptions, uniqueId } from './contract-support';

const T0 = Date.parse('2026-11-20T10:00:00.000Z');

/** The PatternStore contract, run against the in-memory and the TypeORM adapters. */
export function describePatternStoreContract(
  name: string,
  factory: () => PatternStore | Promise<PatternStore>,
  options: ContractOptions = {},
): void {
  describe(`PatternStore contract: ${name}`, () => {
    let store: PatternStore;
    let company: string;
    let otherCompany: string;
    const patternOf = (companyId: string, overrides: Parameters<typeof aPattern>[0] = {}): Pattern =>
      aPattern({ id: uniqueId(), companyId, ...overrides });

    beforeEach(async () => {
      store = await factory();
      [company, otherCompany] = await companies(options, 2);
    });

    afterEach(async () => {
      await options.teardown?.();
    });

    it('finds a saved pattern by id with every field intact, amount statistics included', async () => {
      const pattern = patternOf(company, { amounts: [11900, 12900, 10050] });
      await store.save(pattern, null);

      expect(await store.findById(company, pattern.id)).toEqual(pattern);
    });

    it('keeps who wrote, last changed and confirmed a pattern, through an update', async () => {
      const pattern = patternOf(company, {
        writtenBy: 'per@example.no',
        lastChangedBy: null,
        confirmedBy: ['per@example.no'],
      });
      await store.save(pattern, null);
      const edited = {
        ...pattern,
        lastChangedBy: 'kari@example.no',
        confirmedBy: ['kari@example.no', 'per@example.no'],
        version: 2,
      };
      await store.save(edited, 1);

      expect(await store.findById(company, pattern.id)).toEqual(edited);
      expect(await store.findActiveByKey(company, pattern)).toEqual(edited);
    });

    it('does not find another company’s pattern', async () => {
      const pattern = patternOf(company);
      await store.save(pattern, null);

      expect(await store.findById(otherCompany, pattern.id)).toBeNull();
    });

    it('finds the active pattern of a key, account and VAT rate', async () => {
      const pattern = patternOf(company);
      await store.save(pattern, null);
      await store.save(patternOf(company, { accountCode: '6300' }), null);

      const found = await store.findActiveByKey(company, {
        merchantKey: 'spotify',
        accountCode: '6540',
        vatRate: '25',
      });

      expect(found?.id).toBe(pattern.id);
      expect(
        await store.findActiveByKey(company, { merchantKey: 'spotify', accountCode: '6540', vatRate: '15' }),
      ).toBeNull();
    });

    it('refuses a second active pattern with the same key, account and VAT rate', async () => {
      await store.save(patternOf(company), null);

      await expect(store.save(patternOf(company), null)).rejects.toBeInstanceOf(ConcurrencyConflict);
    });

    it('updates from the expected version and refuses a stale one', async () => {
      const pattern = patternOf(company);
      await store.save(pattern, null);
      const strengthened = { ...pattern, approvals: 4, version: 2 };
      await store.save(strengthened, 1);

      await expect(store.save({ ...pattern, approvals: 9, version: 2 }, 1)).rejects.toBeInstanceOf(ConcurrencyConflict);
      expect((await store.findById(company, pattern.id))?.approvals).toBe(4);
    });

    it('keeps a retired pattern findable by id, and frees its key', async () => {
      const pattern = patternOf(company);
      await store.save(pattern, null);
      await store.save({ ...pattern, retiredAt: new Date(T0), version: 2 }, 1);

      expect((await store.findById(company, pattern.id))?.retiredAt).toEqual(new Date(T0));
      await expect(store.save(patternOf(company), null)).resolves.toBeUndefined();
    });

    it('lists patterns oldest first, page by page, retired ones only when asked', async () => {
      const patterns = [0, 1, 2].map((i) =>
        patternOf(company, {
          merchantName: `Merchant ${String.fromCharCode(97 + i)}`,
          createdAt: new Date(T0 + i * 1000),
        }),
      );
      const retired = patternOf(company, {
        merchantName: 'Gone',
        createdAt: new Date(T0 + 5000),
        retiredAt: new Date(T0 + 6000),
      });
      for (const pattern of [...patterns, retired].reverse()) await store.save(pattern, null);

      const first = await store.list(company, { limit: 2 });
      const second = await store.list(company, { limit: 2, cursor: first.nextCursor });
      const all = await store.list(company, { limit: 50, includeRetired: true });
      const byKey = await store.list(company, { limit: 50, merchantKey: 'merchant b' });

      expect([...first.items, ...second.items].map((p) => p.id)).toEqual(patterns.map((p) => p.id));
      expect(second.nextCursor).toBeNull();
      expect(all.items.map((p) => p.id)).toContain(retired.id);
      expect(byKey.items.map((p) => p.id)).toEqual([patterns[1].id]);
    });
    it('lists the pending suggestions of the history alone, with their evidence intact', async () => {
      const history = { bookings: 11, merchantBookings: 12, firstDate: '2025-12-01', lastDate: '2026-11-01' };
      const pending = patternOf(company, { merchantName: 'Telenor', verified: false, confirmedBy: [], history });
      const confirmed = patternOf(company, { merchantName: 'Fjordkraft', history });
      const learnt = patternOf(company, { merchantName: 'Spotify', verified: false, confirmedBy: [] });
      for (const pattern of [pending, confirmed, learnt]) await store.save(pattern, null);

      const page = await store.list(company, { limit: 50, pendingSuggestions: true });

      expect(page.items).toEqual([pending]);
    });
  });
}
