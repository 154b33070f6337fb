import { Module } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { AccountingProvider, Clock, ProviderCatalog, ProviderGrantExchange, ProviderTokenStore } from '@app/domain';
import { InMemoryProviderTokenStore, ManualClock, testProviderSettings } from '@app/testing';
import { ProvidersModule } from './providers.module';
import { ProviderRegistry } from './provider-registry';
import { RoutingAccountingProvider } from './routing-accounting-provider';
import { FikenProvider } from './fiken/fiken.provider';
import { TripletexProvider } from './tripletex/tripletex.provider';

@Module({
  providers: [
    { provide: ProviderTokenStore, useClass: InMemoryProviderTokenStore },
    { provide: Clock, useValue: new ManualClock() },
  ],
  exports: [ProviderTokenStore, Clock],
})
class TokenStoreModule {}

describe('ProvidersModule', () => {
  it('provides AccountingProvider, routing to the registered Tripletex and Fiken adapters, and the catalog', async () => {
    const moduleRef = await Test.createTestingModule({
      imports: [ProvidersModule.register({ settings: testProviderSettings() }, [TokenStoreModule])],
    }).compile();
    expect(moduleRef.get(AccountingProvider)).toBeInstanceOf(RoutingAccountingProvider);
    const registry = moduleRef.get(ProviderRegistry);
    expect(moduleRef.get(ProviderCatalog)).toBe(registry);
    expect(registry.kinds()).toEqual(['tripletex', 'fiken']);
    expect(registry.adapter('tripletex')).toBeInstanceOf(TripletexProvider);
    expect(registry.adapter('fiken')).toBeInstanceOf(FikenProvider);
    expect(moduleRef.get(ProviderGrantExchange)).toBeInstanceOf(ProviderGrantExchange);
  });

  it('refuses to start without provider credentials', async () => {
    const settings = testProviderSettings({ tripletex: { config: { consumerToken: '' } } });
    const compiling = Test.createTestingModule({
      imports: [ProvidersModule.register({ settings }, [TokenStoreModule])],
    }).compile();
    await expect(compiling).rejects.toThrow('Tripletex consumer token is not configured');
  });

  it('refuses to start with a registered provider that has no settings', async () => {
    const { tripletex } = testProviderSettings();
    const compiling = Test.createTestingModule({
      imports: [ProvidersModule.register({ settings: { tripletex } }, [TokenStoreModule])],
    }).compile();
    await expect(compiling).rejects.toThrow('provider fiken has no settings');
  });
});
