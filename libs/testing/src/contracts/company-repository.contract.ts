import type { CompanyRepository } from '@app/domain';
import { type ContractOptions, uniqueCompanyId } from './contract-support';

/**
 * The CompanyRepository contract: a company is created once under its id, found by it, and listed
 * in id order. Works in a shared database: every test uses ids of its own and looks only at them.
 */
export function describeCompanyRepositoryContract(
  name: string,
  factory: () => CompanyRepository | Promise<CompanyRepository>,
  options: ContractOptions = {},
): void {
  describe(`CompanyRepository contract: ${name}`, () => {
    let companies: CompanyRepository;

    beforeEach(async () => {
      companies = await factory();
    });

    afterEach(async () => {
      await options.teardown?.();
    });

    it('creates a company once: a second create under its id changes nothing', async () => {
      const id = uniqueCompanyId();

      expect(await companies.exists(id)).toBe(false);
      expect(await companies.create({ id, name: 'Acme AS' })).toBe(true);
      expect(await companies.create({ id, name: 'Another name' })).toBe(false);

      expect(await companies.exists(id)).toBe(true);
      expect(await companies.findById(id)).toEqual({ id, name: 'Acme AS', createdAt: expect.any(Date) });
    });

    it('finds no unknown company', async () => {
      expect(await companies.findById(uniqueCompanyId())).toBeNull();
      expect(await companies.exists(uniqueCompanyId())).toBe(false);
    });

    it('lists the companies in id order', async () => {
      const ids = [uniqueCompanyId('c'), uniqueCompanyId('a'), uniqueCompanyId('b')];
      for (const id of ids) await companies.create({ id, name: `Company ${id}` });

      const listed = (await companies.list()).filter((company) => ids.includes(company.id));

      expect(listed.map((company) => company.id)).toEqual([...ids].sort());
      expect(listed[0]).toEqual({ id: listed[0].id, name: `Company ${listed[0].id}`, createdAt: expect.any(Date) });
    });
  });
}
