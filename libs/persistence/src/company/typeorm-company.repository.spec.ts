import { describeCompanyRepositoryContract } from '@app/testing';
import type { Database } from '../database/database';
import { openTestDatabase } from '../testing/test-database';
import { TypeOrmCompanyRepository } from './typeorm-company.repository';

let database: Database;

beforeAll(async () => {
  database = await openTestDatabase();
});

afterAll(async () => {
  await database.close();
});

describeCompanyRepositoryContract('TypeOrmCompanyRepository', () => new TypeOrmCompanyRepository(database.dataSource));
