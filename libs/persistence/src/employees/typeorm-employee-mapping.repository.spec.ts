import { describeEmployeeMappingRepositoryContract } from '@app/testing';
import type { Database } from '../database/database';
import { createCompany, openTestDatabase } from '../testing/test-database';
import { TypeOrmEmployeeMappingRepository } from './typeorm-employee-mapping.repository';

let database: Database;

beforeAll(async () => {
  database = await openTestDatabase();
});

afterAll(async () => {
  await database.close();
});

describeEmployeeMappingRepositoryContract(
  'TypeOrmEmployeeMappingRepository',
  () => new TypeOrmEmployeeMappingRepository(database.dataSource.manager),
  {
    prepareCompany: async (companyId) => {
      await createCompany(database, companyId);
    },
  },
);
