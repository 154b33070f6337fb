import { OAuthTokens, ProviderTokenStore } from '@app/domain';

export interface TokenStoreHarness {
  readonly store: ProviderTokenStore;
  /** Stores a connected company's tokens the way onboarding does. */
  seed(companyId: string, tokens: OAuthTokens): Promise<void>;
  /** A second handle on the same storage, as another process would have (same store is fine in memory). */
  other(): ProviderTokenStore;
  close?(): Promise<void>;
}

const tokens = (n: number): OAuthTokens => ({
  accessToken: `access-${n}`,
  refreshToken: `refresh-${n}`,
  expiresAt: 1_000_000 + n,
});

/**
 * The behaviour every ProviderTokenStore must have (see the port's contract). Call it from a spec:
 * `describeProviderTokenStoreContract('TypeOrmProviderTokenStore', async () => harness)`.
 */
export function describeProviderTokenStoreContract(
  name: string,
  createHarness: () => Promise<TokenStoreHarness>,
): void {
  describe(`${name} (ProviderTokenStore contract)`, () => {
    let harness: TokenStoreHarness;

    beforeEach(async () => {
      harness = await createHarness();
    });

    afterEach(async () => {
      await harness.close?.();
    });

    it('returns null for a company without a connection', async () => {
      await expect(harness.store.current('nobody', 'fiken')).resolves.toBeNull();
    });

    it('stores rotated tokens, all three fields, and returns them', async () => {
      await harness.seed('acme', tokens(1));
      const stored = await harness.store.withRefreshLock('acme', 'fiken', async (current) => {
        expect(current).toEqual(tokens(1));
        return { outcome: 'rotated', tokens: tokens(2) };
      });
      expect(stored).toEqual(tokens(2));
      await expect(harness.other().current('acme', 'fiken')).resolves.toEqual(tokens(2));
    });

    it('changes nothing on keep', async () => {
      await harness.seed('acme', tokens(1));
      await expect(harness.store.withRefreshLock('acme', 'fiken', async () => ({ outcome: 'keep' }))).resolves.toEqual(
        tokens(1),
      );
      await expect(harness.store.current('acme', 'fiken')).resolves.toEqual(tokens(1));
    });

    it('marks the connection as needing re-authorisation on revoked', async () => {
      await harness.seed('acme', tokens(1));
      await expect(
        harness.store.withRefreshLock('acme', 'fiken', async () => ({ outcome: 'revoked', reason: 'invalid_grant' })),
      ).resolves.toBeNull();
      await expect(harness.store.current('acme', 'fiken')).resolves.toBeNull();
      await harness.store.withRefreshLock('acme', 'fiken', async (current) => {
        expect(current).toBeNull();
        return { outcome: 'keep' };
      });
    });

    it('changes nothing and releases the lock when decide throws', async () => {
      await harness.seed('acme', tokens(1));
      await expect(
        harness.store.withRefreshLock('acme', 'fiken', async () => {
          throw new Error('token endpoint down');
        }),
      ).rejects.toThrow('token endpoint down');
      await expect(harness.store.withRefreshLock('acme', 'fiken', async () => ({ outcome: 'keep' }))).resolves.toEqual(
        tokens(1),
      );
    });

    it('runs lock holders one at a time, each seeing what the previous one stored, across handles', async () => {
      await harness.seed('acme', tokens(0));
      let inside = 0;
      let maxInside = 0;
      const seen: string[] = [];
      const holders = Array.from({ length: 8 }, (_, i) =>
        (i % 2 === 0 ? harness.store : harness.other()).withRefreshLock('acme', 'fiken', async (current) => {
          inside++;
          maxInside = Math.max(maxInside, inside);
          seen.push(current?.refreshToken ?? 'none');
          await new Promise((resolve) => setTimeout(resolve, 5));
          inside--;
          const n = Number((current?.refreshToken ?? 'refresh-0').split('-')[1]) + 1;
          return { outcome: 'rotated', tokens: tokens(n) };
        }),
      );
      await Promise.all(holders);
      expect(maxInside).toBe(1);
      expect(seen).toHaveLength(8);
      expect(new Set(seen).size).toBe(8);
      await expect(harness.store.current('acme', 'fiken')).resolves.toEqual(tokens(8));
    });

    it('keeps companies apart', async () => {
      await harness.seed('acme', tokens(1));
      await harness.seed('globex', tokens(5));
      await harness.store.withRefreshLock('acme', 'fiken', async () => ({ outcome: 'rotated', tokens: tokens(2) }));
      await expect(harness.store.current('globex', 'fiken')).resolves.toEqual(tokens(5));
    });
  });
}
