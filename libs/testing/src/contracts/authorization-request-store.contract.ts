import { randomUUID } from 'node:crypto';
import type { AuthorizationRequest, AuthorizationRequestStore, ProviderKind } from '@app/domain';
import { companies, type ContractOptions } from './contract-support';

/**
 * The AuthorizationRequestStore contract: a request is pending until it expires, consumed at most
 * once (even by two callbacks at the same time), returned by `consume` even once expired, and
 * purged by the next `issue` once it expired before that issue's `now`. The purge reaches every
 * company's requests, so the TypeORM adapter runs it on a database of its own.
 */
export function describeAuthorizationRequestStoreContract(
  name: string,
  factory: () => AuthorizationRequestStore | Promise<AuthorizationRequestStore>,
  options: ContractOptions = {},
): void {
  describe(`AuthorizationRequestStore contract: ${name}`, () => {
    let store: AuthorizationRequestStore;
    let company: string;
    let otherCompany: string;
    const now = new Date('2026-11-20T08:00:00.000Z');
    const later = (ms: number) => new Date(now.getTime() + ms);
    const TEN_MINUTES = 600_000;

    const aRequest = (
      companyId: string,
      provider: ProviderKind = 'fiken',
      expiresAt = later(TEN_MINUTES),
    ): AuthorizationRequest => ({ nonce: randomUUID(), companyId, provider, actor: 'kari@acme.no', expiresAt });

    beforeEach(async () => {
      store = await factory();
      [company, otherCompany] = await companies(options, 2);
    });

    afterEach(async () => {
      await options.teardown?.();
    });

    it('keeps an issued request pending until it expires', async () => {
      const request = aRequest(company);
      await store.issue(request, now);

      expect(await store.isPending(request.nonce, now)).toBe(true);
      expect(await store.isPending(request.nonce, later(TEN_MINUTES - 1))).toBe(true);
      expect(await store.isPending(request.nonce, request.expiresAt)).toBe(false);
    });

    it('consumes a request once, returning it as issued', async () => {
      const request = aRequest(company, 'tripletex');
      await store.issue(request, now);

      expect(await store.consume(request.nonce)).toEqual(request);
      expect(await store.consume(request.nonce)).toBeNull();
      expect(await store.isPending(request.nonce, now)).toBe(false);
    });

    it('knows no unknown nonce', async () => {
      expect(await store.consume(randomUUID())).toBeNull();
      expect(await store.isPending(randomUUID(), now)).toBe(false);
    });

    it('still returns an expired request that was not purged, so the caller can tell expiry from replay', async () => {
      const request = aRequest(company);
      await store.issue(request, now);

      expect(await store.isPending(request.nonce, later(TEN_MINUTES + 1))).toBe(false);
      expect(await store.consume(request.nonce)).toEqual(request);
    });

    it('purges, on issuing, the requests of every company that expired before then, and keeps the rest', async () => {
      const expired = aRequest(company, 'fiken', later(1000));
      const expiringThen = aRequest(otherCompany, 'fiken', later(2000));
      const pending = aRequest(otherCompany, 'tripletex', later(TEN_MINUTES));
      await store.issue(expired, now);
      await store.issue(expiringThen, now);
      await store.issue(pending, now);

      const next = aRequest(company, 'fiken', later(2000 + TEN_MINUTES));
      await store.issue(next, later(2000));

      expect(await store.consume(expired.nonce)).toBeNull();
      expect(await store.consume(expiringThen.nonce)).toEqual(expiringThen);
      expect(await store.consume(pending.nonce)).toEqual(pending);
      expect(await store.consume(next.nonce)).toEqual(next);
    });

    it('refuses a second request under a pending nonce and keeps the first', async () => {
      const request = aRequest(company, 'fiken');
      await store.issue(request, now);

      await expect(store.issue({ ...request, companyId: otherCompany, provider: 'tripletex' }, now)).rejects.toThrow();

      expect(await store.consume(request.nonce)).toEqual(request);
    });

    it('gives a request to exactly one of two concurrent callbacks', async () => {
      const request = aRequest(company);
      await store.issue(request, now);

      const outcomes = await Promise.all([store.consume(request.nonce), store.consume(request.nonce)]);

      expect(outcomes.filter((outcome) => outcome !== null)).toEqual([request]);
    });

    it("consumes one company's request without touching another company's", async () => {
      const mine = aRequest(company);
      const theirs = aRequest(otherCompany);
      await store.issue(mine, now);
      await store.issue(theirs, now);

      expect(await store.consume(mine.nonce)).toEqual(mine);

      expect(await store.isPending(theirs.nonce, now)).toBe(true);
      expect(await store.consume(theirs.nonce)).toEqual(theirs);
    });
  });
}
