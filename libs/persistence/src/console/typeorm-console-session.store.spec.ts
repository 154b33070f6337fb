import { describeConsoleSessionStoreContract } from '@app/testing';
import type { Database } from '../database/database';
import { createCompany, openTestDatabase } from '../testing/test-database';
import { TypeOrmConsoleSessionStore } from './typeorm-console-session.store';

let database: Database;

beforeAll(async () => {
  database = await openTestDatabase();
});

afterAll(async () => {
  await database.close();
});

describeConsoleSessionStoreContract(
  'TypeOrmConsoleSessionStore',
  () => new TypeOrmConsoleSessionStore(database.dataSource.manager),
  {
    prepareCompany: async (companyId) => {
      await createCompany(database, companyId);
    },
  },
);
