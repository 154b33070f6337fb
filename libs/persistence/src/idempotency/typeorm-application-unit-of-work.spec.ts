import type { Database } from '../database/database';
import { TypeOrmReceiptStore } from '../receipts/typeorm-receipt.store';
import { createCompany, openTestDatabase } from '../testing/test-database';
// The shared contract lives with the port it checks (libs/application), beside its in-memory run.
import { describeApplicationUnitOfWorkContract } from '../../../application/src/testing/application-unit-of-work.contract';
import { TypeOrmApplicationUnitOfWork } from './typeorm-application-unit-of-work';

let database: Database;

beforeAll(async () => {
  database = await openTestDatabase();
});

afterAll(async () => {
  await database.close();
});

describeApplicationUnitOfWorkContract(
  'TypeOrmApplicationUnitOfWork',
  () => ({
    unitOfWork: new TypeOrmApplicationUnitOfWork(database.dataSource),
    receipts: new TypeOrmReceiptStore(database.dataSource.manager),
  }),
  { prepareCompany: async (id) => void (await createCompany(database, id)) },
);
