import { describeBookingHistoryStoreContract } from '@app/testing';
import type { Database } from '../database/database';
import { createCompany, openTestDatabase } from '../testing/test-database';
import { TypeOrmBookingHistoryStore } from './typeorm-booking-history.store';

let database: Database;

beforeAll(async () => {
  database = await openTestDatabase();
});

afterAll(async () => {
  await database.close();
});

describeBookingHistoryStoreContract(
  'TypeOrmBookingHistoryStore',
  () => new TypeOrmBookingHistoryStore(database.dataSource.manager),
  {
    prepareCompany: async (companyId) => {
      await createCompany(database, companyId);
    },
  },
);
