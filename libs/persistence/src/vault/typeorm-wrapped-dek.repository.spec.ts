import { wrappedDekRepositoryContract } from '@app/testing';
import { openIsolatedDatabase, type IsolatedDatabase } from '../testing/test-database';
import { TypeOrmWrappedDekRepository } from './typeorm-wrapped-dek.repository';

// The contract's cases use fixed company ids ('acme', 'globex', …) and list the whole table, so
// they run in a database of their own, emptied before each case.
const CONTRACT_COMPANIES = ['acme', 'globex', 'alpha', 'bravo', 'charlie', 'delta', 'echo'];

let isolated: IsolatedDatabase;

beforeAll(async () => {
  isolated = await openIsolatedDatabase('vault');
}, 60_000);

afterAll(async () => {
  await isolated?.dispose();
});

async function emptyRepository(): Promise<TypeOrmWrappedDekRepository> {
  const { dataSource } = isolated.database;
  await dataSource.query('DELETE FROM company_keys');
  await dataSource.query(
    `INSERT INTO companies (id, name) SELECT id, id FROM unnest($1::text[]) AS id ON CONFLICT (id) DO NOTHING`,
    [CONTRACT_COMPANIES],
  );
  return new TypeOrmWrappedDekRepository(dataSource.manager);
}

describe('TypeOrmWrappedDekRepository (WrappedDekRepository contract)', () => {
  for (const contractCase of wrappedDekRepositoryContract) {
    it(contractCase.name, async () => contractCase.run(await emptyRepository()));
  }
});

describe('TypeOrmWrappedDekRepository', () => {
  it('destroys a company’s key with the company', async () => {
    const repository = await emptyRepository();
    await isolated.database.dataSource.query(`INSERT INTO companies (id, name) VALUES ('doomed', 'Doomed AS')`);
    await repository.insertIfAbsent({ companyId: 'doomed', wrapped: Buffer.from([1, 2, 3]), kekId: 'local:v1' });

    await isolated.database.dataSource.query(`DELETE FROM companies WHERE id = 'doomed'`);

    expect(await repository.find('doomed')).toBeNull();
  });

  it('records when a key was re-wrapped', async () => {
    const repository = await emptyRepository();
    const original = await repository.insertIfAbsent({
      companyId: 'acme',
      wrapped: Buffer.from([1]),
      kekId: 'local:v1',
    });

    await repository.replaceWrapping('acme', original, { wrapped: Buffer.from([2]), kekId: 'local:v2' });

    const [row] = (await isolated.database.dataSource.query(
      `SELECT rotated_at FROM company_keys WHERE company_id = 'acme'`,
    )) as {
      rotated_at: Date | null;
    }[];
    expect(row.rotated_at).toBeInstanceOf(Date);
  });

  it('runs against a throwaway database of its own, reached by URL', () => {
    expect(isolated.database.embedded).toBe(false);
  });
});
