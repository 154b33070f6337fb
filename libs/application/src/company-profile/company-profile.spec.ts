import { DEFAULT_COMPANY_SETTINGS } from '@app/domain';
import { createInMemoryAdapters } from '@app/testing';
import { GetCompanyProfile } from './company-profile.query';

describe('GetCompanyProfile', () => {
  it("gives the company's name and locale", async () => {
    const adapters = createInMemoryAdapters();
    await adapters.companies.create({ id: 'acme', name: 'Acme AS' });
    await adapters.settings.save('acme', { ...DEFAULT_COMPANY_SETTINGS, locale: 'en-GB' });

    const profile = await new GetCompanyProfile(adapters.companies, adapters.settings).execute('acme');

    expect(profile).toEqual({ id: 'acme', name: 'Acme AS', locale: 'en-GB' });
  });

  it('names a company without a stored record by its id, in the default locale', async () => {
    const adapters = createInMemoryAdapters();

    const profile = await new GetCompanyProfile(adapters.companies, adapters.settings).execute('ghost');

    expect(profile).toEqual({ id: 'ghost', name: 'ghost', locale: 'nb-NO' });
  });
});
