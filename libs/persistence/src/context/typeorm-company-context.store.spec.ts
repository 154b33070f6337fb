import { describeCompanyContextStoreContract } from '@app/testing';
import { CachedCompanyContextStore } from '../cache/cached-company-stores';
import type { Database } from '../database/database';
import { createCompany, openTestDatabase } from '../testing/test-database';
import { TypeOrmCompanyContextStore } from './typeorm-company-context.store';

let database: Database;

beforeAll(async () => {
  database = await openTestDatabase();
});

afterAll(async () => {
  await database.close();
});

const prepareCompany = async (companyId: string) => {
  await createCompany(database, companyId);
};

describeCompanyContextStoreContract(
  'TypeOrmCompanyContextStore',
  () => new TypeOrmCompanyContextStore(database.dataSource.manager),
  { prepareCompany },
);

// What the persistence module binds: the TypeORM store behind the per-process cache.
describeCompanyContextStoreContract(
  'CachedCompanyContextStore over TypeOrmCompanyContextStore',
  () => new CachedCompanyContextStore(new TypeOrmCompanyContextStore(database.dataSource.manager), 60_000),
  { prepareCompany },
);
