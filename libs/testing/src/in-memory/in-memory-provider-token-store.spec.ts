import { InMemoryProviderTokenStore } from './in-memory-provider-token-store';
import { describeProviderTokenStoreContract } from '../contracts/provider-token-store.contract';

describeProviderTokenStoreContract('InMemoryProviderTokenStore', async () => {
  const store = new InMemoryProviderTokenStore();
  return { store, seed: (companyId, tokens) => store.save(companyId, 'fiken', tokens), other: () => store };
});
