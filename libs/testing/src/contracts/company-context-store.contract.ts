import type { CompanyContext, CompanyContextStore, ProviderKind } from '@app/domain';
import { companies, type ContractOptions } from './contract-support';

/**
 * The CompanyContextStore contract: a company has no context until one is saved; a save replaces
 * the whole context (provider, every list, the fetch time) and is read back as saved, lists in the
 * provider's order; each company sees only its own.
 */
export function describeCompanyContextStoreContract(
  name: string,
  factory: () => CompanyContextStore | Promise<CompanyContextStore>,
  options: ContractOptions = {},
): void {
  describe(`CompanyContextStore contract: ${name}`, () => {
    let store: CompanyContextStore;
    let company: string;
    let otherCompany: string;

    const aContext = (companyId: string, provider: ProviderKind = 'tripletex'): CompanyContext => ({
      companyId,
      provider,
      // Not in code order: the store keeps the provider's order.
      accounts: [
        { code: '6540', name: 'Inventar', vatTypeId: '1' },
        { code: '1920', name: 'Bankinnskudd' },
        { code: '2400:10001', name: 'Leverandørgjeld – Kontorrekvisita AS' },
      ],
      departments: [
        { id: '7', name: 'Salg', number: '20' },
        { id: '3', name: 'Drift', number: null },
      ],
      vatTypes: [
        { id: '1', code: '1', name: 'Fradrag inngående avgift, høy sats', ratePercent: '25' },
        { id: '31', code: '31', name: 'Fradrag inngående avgift, råvarer', ratePercent: '11.11' },
        { id: '0', code: '0', name: 'Ingen avgiftsbehandling', ratePercent: '0' },
      ],
      employees: [
        { id: '101', firstName: 'Kari', lastName: 'Nordmann', email: 'kari@acme.no' },
        { id: '102', firstName: 'Ola', lastName: 'Hansen', email: null },
      ],
      voucherTypes: [
        { id: '8145247', name: 'Ansattutlegg' },
        { id: '8145237', name: 'Leverandørfaktura' },
      ],
      inactiveSuppliers: [{ id: '108001', name: 'Gamle Leverandør AS', organizationNumber: '923609016' }],
      fetchedAt: new Date('2026-11-20T08:00:00.123Z'),
    });

    beforeEach(async () => {
      store = await factory();
      [company, otherCompany] = await companies(options, 2);
    });

    afterEach(async () => {
      await options.teardown?.();
    });

    it('has no context for a company until one is saved', async () => {
      expect(await store.get(company)).toBeNull();
    });

    it('reads a saved context back as it was saved, lists in their order', async () => {
      const context = aContext(company);
      await store.save(context);

      expect(await store.get(company)).toEqual(context);
    });

    it('replaces the whole context on a save: provider, every list and the fetch time', async () => {
      const first = aContext(company, 'tripletex');
      await store.save(first);
      expect(await store.get(company)).toEqual(first);
      const refetched: CompanyContext = {
        companyId: company,
        provider: 'fiken',
        accounts: [{ code: '1920:10001', name: 'Driftskonto' }],
        departments: [],
        vatTypes: [{ id: 'HIGH', code: 'HIGH', name: 'Høy sats', ratePercent: '25' }],
        employees: [],
        voucherTypes: [],
        inactiveSuppliers: [],
        fetchedAt: new Date('2026-11-21T08:00:00.000Z'),
      };

      await store.save(refetched);

      expect(await store.get(company)).toEqual(refetched);
    });

    it("keeps each account's rules, inactive accounts, and the VAT types' standard codes", async () => {
      const context: CompanyContext = {
        ...aContext(company),
        accounts: [
          {
            code: '6300',
            name: 'Leie lokale',
            vatTypeId: '1',
            rules: {
              lockedVatCode: '1',
              legalVatCodes: ['1'],
              ledgerType: 'general',
              requiresDepartment: true,
              requiresProject: false,
              inactive: false,
            },
          },
          {
            code: '2400',
            name: 'Leverandørgjeld',
            rules: {
              lockedVatCode: null,
              legalVatCodes: null,
              ledgerType: 'supplier',
              requiresDepartment: false,
              requiresProject: false,
              inactive: false,
            },
          },
          {
            code: '6900',
            name: 'Telefon (gammel)',
            rules: {
              lockedVatCode: null,
              legalVatCodes: ['0', '1'],
              ledgerType: 'general',
              requiresDepartment: false,
              requiresProject: true,
              inactive: true,
            },
          },
        ],
        vatTypes: [
          { id: '1', code: '1', name: 'Fradrag inngående avgift, høy sats', ratePercent: '25', standardCode: '1' },
          { id: '21', code: '21', name: 'Tjenester kjøpt fra utlandet', ratePercent: '25', standardCode: '86' },
          { id: '99', code: '99', name: 'Uten standardkode', ratePercent: '0', standardCode: null },
        ],
      };

      await store.save(context);

      expect(await store.get(company)).toEqual(context);
    });

    it("keeps each company's context to itself", async () => {
      const mine = aContext(company, 'tripletex');
      await store.save(mine);

      expect(await store.get(otherCompany)).toBeNull();

      const theirs = { ...aContext(otherCompany, 'fiken'), accounts: [{ code: '3000', name: 'Salgsinntekt' }] };
      await store.save(theirs);

      expect(await store.get(company)).toEqual(mine);
      expect(await store.get(otherCompany)).toEqual(theirs);
    });

    it('keeps what was saved when the caller changes its object afterwards', async () => {
      const context = aContext(company);
      const accounts = [...context.accounts];
      await store.save({ ...context, accounts });

      accounts.push({ code: '9999', name: 'Added after the save' });

      expect((await store.get(company))?.accounts).toEqual(context.accounts);
    });
  });
}
