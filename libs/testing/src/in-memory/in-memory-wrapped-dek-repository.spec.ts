import { InMemoryWrappedDekRepository } from './in-memory-wrapped-dek-repository';
import { wrappedDekRepositoryContract } from '../contracts/wrapped-dek-repository.contract';

describe('InMemoryWrappedDekRepository', () => {
  it.each(wrappedDekRepositoryContract.map((contractCase) => [contractCase.name, contractCase] as const))(
    '%s',
    (_name, contractCase) => contractCase.run(new InMemoryWrappedDekRepository()),
  );

  it('hands out copies, so callers cannot alter what is stored', async () => {
    const repository = new InMemoryWrappedDekRepository();
    const stored = await repository.insertIfAbsent({
      companyId: 'acme',
      wrapped: Buffer.alloc(8, 1),
      kekId: 'local:v1',
    });
    stored.wrapped.fill(9);
    (await repository.find('acme'))!.wrapped.fill(9);
    expect(Buffer.from((await repository.find('acme'))!.wrapped).equals(Buffer.alloc(8, 1))).toBe(true);
  });
});
