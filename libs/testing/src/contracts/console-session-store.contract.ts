import { randomUUID } from 'node:crypto';
import type { ConsoleGrant, ConsoleSessionStore } from '@app/domain';
import { companies, type ContractOptions } from './contract-support';

/** The ConsoleSessionStore contract, run against the in-memory and the TypeORM adapters. */
export function describeConsoleSessionStoreContract(
  name: string,
  factory: () => ConsoleSessionStore | Promise<ConsoleSessionStore>,
  options: ContractOptions = {},
): void {
  describe(`ConsoleSessionStore contract: ${name}`, () => {
    let store: ConsoleSessionStore;
    let company: string;
    let otherCompany: string;
    const now = new Date('2026-11-20T08:00:00.000Z');
    const later = (ms: number) => new Date(now.getTime() + ms);

    const grant = (companyId: string, lifetimeMs = 300_000): ConsoleGrant => ({
      digest: randomUUID(),
      companyId,
      actor: 'kari@firm.no',
      role: 'accountant',
      permissions: ['solve', 'query', 'monitor'],
      createdAt: now,
      expiresAt: later(lifetimeMs),
    });

    beforeEach(async () => {
      store = await factory();
      [company, otherCompany] = await companies(options, 2);
    });

    afterEach(async () => {
      await options.teardown?.();
    });

    it('redeems a link once, with the identity it was issued for', async () => {
      const link = grant(company);
      await store.saveLink(link);

      expect(await store.redeemLink(link.digest, later(1000))).toEqual(link);
      expect(await store.redeemLink(link.digest, later(2000))).toBe('used');
    });

    it('refuses an expired link and an unknown one, telling them apart', async () => {
      const link = grant(company);
      await store.saveLink(link);

      expect(await store.redeemLink(link.digest, link.expiresAt)).toBe('expired');
      expect(await store.redeemLink(randomUUID(), now)).toBe('unknown');
    });

    it('finds an unused link without using it, and tells a used, expired or unknown one apart', async () => {
      const link = grant(company);
      await store.saveLink(link);

      expect(await store.findLink(link.digest, later(1000))).toEqual(link);
      expect(await store.findLink(link.digest, later(1000))).toEqual(link);
      expect(await store.findLink(link.digest, link.expiresAt)).toBe('expired');
      expect(await store.findLink(randomUUID(), now)).toBe('unknown');
      expect(await store.redeemLink(link.digest, later(2000))).toEqual(link);
      expect(await store.findLink(link.digest, later(3000))).toBe('used');
    });

    it('lets exactly one of two concurrent openings of a link through', async () => {
      const link = grant(company);
      await store.saveLink(link);

      const outcomes = await Promise.all([store.redeemLink(link.digest, now), store.redeemLink(link.digest, now)]);

      expect(outcomes.filter((o) => typeof o === 'object')).toHaveLength(1);
      expect(outcomes).toContain('used');
    });

    it('finds a session until it expires or ends', async () => {
      const session = grant(company, 3_600_000);
      const ended = grant(company, 3_600_000);
      await store.startSession(session);
      await store.startSession(ended);
      await store.endSession(ended.digest);

      expect(await store.findSession(session.digest, later(1000))).toEqual(session);
      expect(await store.findSession(session.digest, session.expiresAt)).toBeNull();
      expect(await store.findSession(ended.digest, later(1000))).toBeNull();
    });

    it("ends one company's sessions and links, and no other company's", async () => {
      const mine = grant(company, 3_600_000);
      const link = grant(company);
      const theirs = grant(otherCompany, 3_600_000);
      await store.startSession(mine);
      await store.saveLink(link);
      await store.startSession(theirs);

      expect(await store.endCompanySessions(company)).toBe(1);

      expect(await store.findSession(mine.digest, now)).toBeNull();
      expect(await store.redeemLink(link.digest, now)).toBe('unknown');
      expect(await store.findSession(theirs.digest, now)).toEqual(theirs);
    });
  });
}
