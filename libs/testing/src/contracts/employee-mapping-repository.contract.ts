import {
  EmployeeMappingConflict,
  type EmployeeMappingInput,
  type EmployeeMappingRepository,
  type ExternalIdentity,
} from '@app/domain';
import { companies, type ContractOptions } from './contract-support';

/**
 * The EmployeeMappingRepository contract: a save creates or replaces a user's mapping (identities
 * included, creation time kept), an email and an external identity each belong to at most one user
 * of a company (a second user gets EmployeeMappingConflict and nothing changes), lookups by email
 * ignore case, lists are keyset pages in userId order, a deletion takes the user's identities with
 * it, and every read sees one company only.
 */
export function describeEmployeeMappingRepositoryContract(
  name: string,
  factory: () => EmployeeMappingRepository | Promise<EmployeeMappingRepository>,
  options: ContractOptions = {},
): void {
  describe(`EmployeeMappingRepository contract: ${name}`, () => {
    let repository: EmployeeMappingRepository;
    let company: string;
    let otherCompany: string;
    const created = new Date('2026-11-20T08:00:00.000Z');
    const updated = new Date('2026-11-21T09:30:00.000Z');

    const slack = (externalId: string): ExternalIdentity => ({ channel: 'slack', externalId });
    const email = (externalId: string): ExternalIdentity => ({ channel: 'email', externalId });
    const input = (overrides: Partial<EmployeeMappingInput> = {}): EmployeeMappingInput => ({
      email: 'kari@acme.no',
      role: 'employee',
      externalIdentities: [slack('U0KARI')],
      providerEmployeeId: null,
      defaultDepartmentId: null,
      ...overrides,
    });

    beforeEach(async () => {
      repository = await factory();
      [company, otherCompany] = await companies(options, 2);
    });

    afterEach(async () => {
      await options.teardown?.();
    });

    it('creates a mapping and finds it by user, email and external identity', async () => {
      const saved = await repository.save(
        company,
        'kari',
        input({
          providerEmployeeId: '101',
          defaultDepartmentId: '7',
          externalIdentities: [slack('U0KARI'), email('kari@acme.no')],
        }),
        created,
      );

      const expected = {
        companyId: company,
        userId: 'kari',
        email: 'kari@acme.no',
        role: 'employee',
        // Identities come back ordered by channel, then external id.
        externalIdentities: [email('kari@acme.no'), slack('U0KARI')],
        providerEmployeeId: '101',
        defaultDepartmentId: '7',
        createdAt: created,
        updatedAt: created,
      };
      expect(saved).toEqual({ mapping: expected, created: true });
      expect(await repository.find(company, 'kari')).toEqual(expected);
      expect(await repository.findByEmail(company, 'kari@acme.no')).toEqual(expected);
      expect(await repository.findByExternalIdentity(company, 'slack', 'U0KARI')).toEqual(expected);
      expect(await repository.findByExternalIdentity(company, 'email', 'kari@acme.no')).toEqual(expected);
    });

    it('finds by email whatever its case and surrounding spaces', async () => {
      await repository.save(company, 'kari', input(), created);

      expect(await repository.findByEmail(company, '  Kari@ACME.no ')).toMatchObject({ userId: 'kari' });
    });

    it('finds nothing unknown', async () => {
      await repository.save(company, 'kari', input(), created);

      expect(await repository.find(company, 'ola')).toBeNull();
      expect(await repository.findByEmail(company, 'ola@acme.no')).toBeNull();
      expect(await repository.findByExternalIdentity(company, 'slack', 'U0OLA')).toBeNull();
      // The same external id on another channel is another identity.
      expect(await repository.findByExternalIdentity(company, 'teams', 'U0KARI')).toBeNull();
    });

    it('replaces a mapping on a second save: identities replaced, creation time kept', async () => {
      await repository.save(company, 'kari', input({ externalIdentities: [slack('U0KARI'), slack('U0OLD')] }), created);

      const saved = await repository.save(
        company,
        'kari',
        input({
          email: 'kari.nordmann@acme.no',
          role: 'manager',
          externalIdentities: [{ channel: 'teams', externalId: 'kari-teams' }],
          providerEmployeeId: '101',
        }),
        updated,
      );

      const expected = {
        companyId: company,
        userId: 'kari',
        email: 'kari.nordmann@acme.no',
        role: 'manager',
        externalIdentities: [{ channel: 'teams', externalId: 'kari-teams' }],
        providerEmployeeId: '101',
        defaultDepartmentId: null,
        createdAt: created,
        updatedAt: updated,
      };
      expect(saved).toEqual({ mapping: expected, created: false });
      expect(await repository.find(company, 'kari')).toEqual(expected);
      expect(await repository.findByEmail(company, 'kari@acme.no')).toBeNull();
      expect(await repository.findByExternalIdentity(company, 'slack', 'U0OLD')).toBeNull();
    });

    it('refuses a second user the email of another, and changes neither', async () => {
      await repository.save(company, 'kari', input(), created);

      const refused = repository.save(
        company,
        'ola',
        input({ email: 'kari@acme.no', externalIdentities: [slack('U0OLA')] }),
        updated,
      );

      await expect(refused).rejects.toBeInstanceOf(EmployeeMappingConflict);
      await expect(refused).rejects.toMatchObject({ fieldErrors: [{ field: 'email' }] });
      expect(await repository.find(company, 'ola')).toBeNull();
      expect(await repository.findByExternalIdentity(company, 'slack', 'U0OLA')).toBeNull();
      expect(await repository.findByEmail(company, 'kari@acme.no')).toMatchObject({ userId: 'kari' });
    });

    it('refuses a user an external identity of another, and keeps what that user had', async () => {
      await repository.save(company, 'kari', input(), created);
      await repository.save(company, 'ola', input({ email: 'ola@acme.no', externalIdentities: [] }), created);

      const refused = repository.save(
        company,
        'ola',
        input({ email: 'ola.hansen@acme.no', externalIdentities: [slack('U0OLA'), slack('U0KARI')] }),
        updated,
      );

      await expect(refused).rejects.toBeInstanceOf(EmployeeMappingConflict);
      await expect(refused).rejects.toMatchObject({ fieldErrors: [{ field: 'externalIdentities' }] });
      expect(await repository.find(company, 'ola')).toMatchObject({
        email: 'ola@acme.no',
        externalIdentities: [],
        updatedAt: created,
      });
      expect(await repository.findByExternalIdentity(company, 'slack', 'U0KARI')).toMatchObject({ userId: 'kari' });
      expect(await repository.findByExternalIdentity(company, 'slack', 'U0OLA')).toBeNull();
    });

    it('lets another user take an email or identity once its owner gave it up', async () => {
      await repository.save(company, 'kari', input(), created);
      await repository.save(company, 'kari', input({ email: 'kari.n@acme.no', externalIdentities: [] }), updated);

      const saved = await repository.save(company, 'ola', input(), updated);

      expect(saved.created).toBe(true);
      expect(await repository.findByEmail(company, 'kari@acme.no')).toMatchObject({ userId: 'ola' });
      expect(await repository.findByExternalIdentity(company, 'slack', 'U0KARI')).toMatchObject({ userId: 'ola' });
    });

    it('deletes a mapping with its identities, once', async () => {
      await repository.save(company, 'kari', input(), created);

      expect(await repository.delete(company, 'kari')).toBe(true);
      expect(await repository.delete(company, 'kari')).toBe(false);

      expect(await repository.find(company, 'kari')).toBeNull();
      expect(await repository.findByExternalIdentity(company, 'slack', 'U0KARI')).toBeNull();
      expect(await repository.findByEmail(company, 'kari@acme.no')).toBeNull();
      // The email and the identity are free again.
      expect((await repository.save(company, 'ola', input(), updated)).created).toBe(true);
    });

    it('lists keyset pages in userId order, strictly after the cursor', async () => {
      const users = ['u-3', 'u-1', 'u-5', 'u-2', 'u-4'];
      for (const userId of users) {
        await repository.save(
          company,
          userId,
          input({ email: `${userId}@acme.no`, externalIdentities: [slack(`S-${userId}`)] }),
          created,
        );
      }

      const first = await repository.list(company, null, 2);
      const second = await repository.list(company, first[first.length - 1].userId, 2);
      const third = await repository.list(company, second[second.length - 1].userId, 2);
      const past = await repository.list(company, 'u-5', 2);

      expect([first, second, third].map((page) => page.map((m) => m.userId))).toEqual([
        ['u-1', 'u-2'],
        ['u-3', 'u-4'],
        ['u-5'],
      ]);
      expect(past).toEqual([]);
      expect(first[0]).toEqual({
        companyId: company,
        userId: 'u-1',
        email: 'u-1@acme.no',
        role: 'employee',
        externalIdentities: [slack('S-u-1')],
        providerEmployeeId: null,
        defaultDepartmentId: null,
        createdAt: created,
        updatedAt: created,
      });
    });

    it("keeps each company's mappings to itself: the same user, email and identity in two companies", async () => {
      await repository.save(company, 'kari', input({ role: 'admin' }), created);

      expect(await repository.find(otherCompany, 'kari')).toBeNull();
      expect(await repository.findByEmail(otherCompany, 'kari@acme.no')).toBeNull();
      expect(await repository.findByExternalIdentity(otherCompany, 'slack', 'U0KARI')).toBeNull();
      expect(await repository.list(otherCompany, null, 10)).toEqual([]);
      expect(await repository.delete(otherCompany, 'kari')).toBe(false);

      const theirs = await repository.save(otherCompany, 'kari', input({ role: 'employee' }), updated);

      expect(theirs).toMatchObject({ created: true, mapping: { companyId: otherCompany, role: 'employee' } });
      expect(await repository.find(company, 'kari')).toMatchObject({ companyId: company, role: 'admin' });
      expect((await repository.list(company, null, 10)).map((m) => m.companyId)).toEqual([company]);
    });

    it('gives an email to exactly one of two users saved at the same time', async () => {
      const outcomes = await Promise.allSettled([
        repository.save(company, 'kari', input({ externalIdentities: [] }), created),
        repository.save(company, 'ola', input({ externalIdentities: [] }), created),
      ]);

      expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(1);
      const rejected = outcomes.filter((o): o is PromiseRejectedResult => o.status === 'rejected');
      expect(rejected.map((o) => o.reason)).toEqual([expect.any(EmployeeMappingConflict)]);
      expect((await repository.list(company, null, 10)).map((m) => m.email)).toEqual(['kari@acme.no']);
    });
  });
}
