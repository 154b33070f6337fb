import { DEFAULT_COMPANY_SETTINGS, type CompanyContext, type CompanySettings } from '@app/domain';
import { InMemoryCompanyContextStore, InMemoryCompanySettingsStore } from '@app/testing';
import { CachedCompanyContextStore, CachedCompanySettingsStore } from './cached-company-stores';
import { TtlCache } from './ttl-cache';

/** A load that counts its calls and settles when told. */
function controlledLoad<V>() {
  let calls = 0;
  const pending: { resolve: (v: V) => void; reject: (e: unknown) => void }[] = [];
  const load = () => {
    calls++;
    return new Promise<V>((resolve, reject) => pending.push({ resolve, reject }));
  };
  return { load, calls: () => calls, pending };
}

describe('TtlCache', () => {
  let now = 0;
  const clock = () => now;

  beforeEach(() => {
    now = 1_000;
  });

  it('loads once, answers from memory until the TTL passes, then loads again', async () => {
    const cache = new TtlCache<number>(5_000, 100, clock);
    let loads = 0;
    const load = async () => ++loads;

    expect(await cache.get('a', load)).toBe(1);
    now += 5_000;
    expect(await cache.get('a', load)).toBe(1);
    now += 1;
    expect(await cache.get('a', load)).toBe(2);
  });

  it('shares one load between concurrent misses of a key', async () => {
    const cache = new TtlCache<string>(5_000, 100, clock);
    const { load, calls, pending } = controlledLoad<string>();

    const first = cache.get('a', load);
    const second = cache.get('a', load);
    pending[0].resolve('value');

    expect(await Promise.all([first, second])).toEqual(['value', 'value']);
    expect(calls()).toBe(1);
  });

  it('keeps no failed load: the next call tries again', async () => {
    const cache = new TtlCache<string>(5_000, 100, clock);
    const { load, calls, pending } = controlledLoad<string>();

    const failing = cache.get('a', load);
    pending[0].reject(new Error('database down'));
    await expect(failing).rejects.toThrow('database down');
    const retried = cache.get('a', load);
    pending[1].resolve('back');

    expect(await retried).toBe('back');
    expect(calls()).toBe(2);
  });

  it('lets a delete win over a load in flight: its result is not kept', async () => {
    const cache = new TtlCache<string>(5_000, 100, clock);
    const { load, calls, pending } = controlledLoad<string>();

    const stale = cache.get('a', load);
    cache.delete('a');
    pending[0].resolve('before the write');
    expect(await stale).toBe('before the write');
    const fresh = cache.get('a', load);
    pending[1].resolve('after the write');

    expect(await fresh).toBe('after the write');
    expect(calls()).toBe(2);
  });

  it('caches nothing with a TTL of 0, and drops the least recently used key when full', async () => {
    let loads = 0;
    const load = async () => ++loads;
    const off = new TtlCache<number>(0, 100, clock);
    await off.get('a', load);
    await off.get('a', load);
    expect(loads).toBe(2);

    const small = new TtlCache<number>(5_000, 2, clock);
    expect(await small.get('a', load)).toBe(3);
    expect(await small.get('b', load)).toBe(4);
    expect(await small.get('a', load)).toBe(3); // a is now the most recently used
    expect(await small.get('c', load)).toBe(5); // full: b goes
    expect(await small.get('a', load)).toBe(3);
    expect(await small.get('b', load)).toBe(6);
  });
});

describe('the cached company stores', () => {
  const settings = (delay: number): CompanySettings => ({ ...DEFAULT_COMPANY_SETTINGS, executionDelayMinutes: delay });

  it('serve settings from memory and see their own saves at once', async () => {
    const inner = new InMemoryCompanySettingsStore();
    await inner.save('acme', settings(5));
    const store = new CachedCompanySettingsStore(inner, 60_000);

    expect((await store.get('acme')).executionDelayMinutes).toBe(5);
    await inner.save('acme', settings(30)); // another instance's save: not seen within the TTL
    expect((await store.get('acme')).executionDelayMinutes).toBe(5);
    await store.save('acme', settings(60));
    expect((await store.get('acme')).executionDelayMinutes).toBe(60);
  });

  it('hand out frozen values, so that no caller changes what the next one reads', async () => {
    const contexts = new CachedCompanyContextStore(new InMemoryCompanyContextStore(), 60_000);
    const context: CompanyContext = {
      companyId: 'acme',
      provider: 'tripletex',
      accounts: [{ code: '6540', name: 'Inventar' }],
      departments: [],
      vatTypes: [],
      employees: [],
      voucherTypes: [],
      inactiveSuppliers: [],
      fetchedAt: new Date('2026-11-01T00:00:00Z'),
    };
    await contexts.save(context);

    const read = (await contexts.get('acme'))!;
    expect(read.accounts).toHaveLength(1);
    expect(Object.isFrozen(read) && Object.isFrozen(read.accounts) && Object.isFrozen(read.accounts[0])).toBe(true);
    expect(
      Object.isFrozen(await new CachedCompanySettingsStore(new InMemoryCompanySettingsStore(), 60_000).get('x')),
    ).toBe(true);
  });
});
