import type { ProviderConnection } from '@app/domain';
import { testProviderRegistry } from '@app/testing';
import type { FikenConnection } from './fiken/fiken-connection';
import { RoutingAccountingProvider } from './routing-accounting-provider';
import type { TripletexConnection } from './tripletex/tripletex-connection';

describe('RoutingAccountingProvider', () => {
  const registry = testProviderRegistry();
  const router = new RoutingAccountingProvider(registry);
  const tx: TripletexConnection = {
    provider: 'tripletex',
    companyId: 'a',
    baseUrl: 'http://127.0.0.1:9',
    credentials: { version: '1', employeeToken: async () => 't' },
  };
  const fk: FikenConnection = {
    provider: 'fiken',
    companyId: 'b',
    baseUrl: 'http://127.0.0.1:9',
    tokenUrl: 'http://127.0.0.1:9/oauth/token',
    companySlug: 'b',
  };

  it.each<[string, ProviderConnection]>([
    ['tripletex', tx],
    ['fiken', fk],
  ])('sends a %s connection to its adapter', async (kind, conn) => {
    const spy = jest.spyOn(registry.adapter(kind), 'balances').mockResolvedValue([]);
    await router.balances(conn, '2026-03-16');
    expect(spy).toHaveBeenCalledWith(conn, '2026-03-16', undefined);
    spy.mockRestore();
  });

  it('refuses a connection of the other provider inside an adapter', async () => {
    await expect(registry.adapter('tripletex').balances(fk, '2026-03-16')).rejects.toThrow(
      'TripletexProvider was given a fiken connection',
    );
  });

  it('refuses a connection of a provider nobody registered', async () => {
    const unknown: ProviderConnection = { provider: 'nobody', companyId: 'c', baseUrl: 'http://127.0.0.1:9' };
    await expect(async () => router.balances(unknown, '2026-03-16')).rejects.toThrow(
      'no accounting provider nobody is registered',
    );
  });
});
