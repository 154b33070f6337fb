import { FikenConnection, ProviderConnection, TripletexConnection } from '@app/domain';
import { ManualClock } from '@app/testing';
import { FikenProvider } from './fiken/fiken.provider';
import { RoutingAccountingProvider } from './routing-accounting-provider';
import { InMemoryProviderTokenStore } from '@app/testing';
import { TripletexProvider } from './tripletex/tripletex.provider';

describe('RoutingAccountingProvider', () => {
  const clock = new ManualClock();
  const tripletex = new TripletexProvider({ consumerToken: 'consumer' }, clock);
  const fiken = new FikenProvider(
    { clientId: 'client', clientSecret: 'secret' },
    new InMemoryProviderTokenStore(),
    clock,
  );
  const router = new RoutingAccountingProvider(tripletex, fiken);
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

  it.each<[string, ProviderConnection, TripletexProvider | FikenProvider]>([
    ['tripletex', tx, tripletex],
    ['fiken', fk, fiken],
  ])('sends a %s connection to its adapter', async (_name, conn, adapter) => {
    const spy = jest.spyOn(adapter, 'balances').mockResolvedValue([]);
    await router.balances(conn, '2026-03-16');
    expect(spy).toHaveBeenCalledWith(conn, '2026-03-16', undefined);
    spy.mockRestore();
  });

  it('refuses a connection of the other provider inside an adapter', async () => {
    await expect(tripletex.balances(fk, '2026-03-16')).rejects.toThrow(
      'TripletexProvider was given a fiken connection',
    );
  });
});
