import { describeBookedReceiptsContract } from '@app/testing';
import type { Database } from '../database/database';
import { createCompany, openTestDatabase } from '../testing/test-database';
import { TypeOrmBookedReceipts } from './typeorm-booked-receipts';

let database: Database;

beforeAll(async () => {
  database = await openTestDatabase();
});

afterAll(async () => {
  await database.close();
});

describeBookedReceiptsContract('TypeOrmBookedReceipts', () => new TypeOrmBookedReceipts(database.dataSource.manager), {
  prepareCompany: async (companyId) => {
    await createCompany(database, companyId);
  },
});
