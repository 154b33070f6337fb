import { Module } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { AccountingProvider, Clock, ProviderTokenStore } from '@app/domain';
import { ManualClock } from '@app/testing';
import { FikenProvider } from './fiken/fiken.provider';
import { ProvidersModule } from './providers.module';
import { RoutingAccountingProvider } from './routing-accounting-provider';
import { InMemoryProviderTokenStore } from '@app/testing';
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
  it('provides AccountingProvider, routing to the Tripletex and Fiken adapters', async () => {
    const moduleRef = await Test.createTestingModule({
      imports: [
        ProvidersModule.register(
          {
            tripletex: { consumerToken: 'consumer' },
            fiken: { clientId: 'client', clientSecret: 'secret' },
          },
          [TokenStoreModule],
        ),
      ],
    }).compile();
    const provider = moduleRef.get(AccountingProvider);
    expect(provider).toBeInstanceOf(RoutingAccountingProvider);
    expect(moduleRef.get(TripletexProvider)).toBeInstanceOf(TripletexProvider);
    expect(moduleRef.get(FikenProvider)).toBeInstanceOf(FikenProvider);
  });

  it('refuses to start without provider credentials', async () => {
    const compiling = Test.createTestingModule({
      imports: [
        ProvidersModule.register({ tripletex: { consumerToken: '' }, fiken: { clientId: 'c', clientSecret: 's' } }, [
          TokenStoreModule,
        ]),
      ],
    }).compile();
    await expect(compiling).rejects.toThrow('Tripletex consumer token is not configured');
  });
});
