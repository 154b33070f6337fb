import { describeSubmissionReadsContract } from '@app/testing';
import type { Database } from '../database/database';
import { TypeOrmBookingHistoryStore } from '../history/typeorm-booking-history.store';
import { TypeOrmPatternStore } from '../pattern/typeorm-pattern.store';
import { createCompany, openTestDatabase } from '../testing/test-database';
import { TypeOrmProposalRepository } from './typeorm-proposal.repository';
import { TypeOrmSubmissionReads } from './typeorm-submission-reads';

let database: Database;

beforeAll(async () => {
  database = await openTestDatabase();
});

afterAll(async () => {
  await database.close();
});

describeSubmissionReadsContract(
  'TypeOrmSubmissionReads',
  () => {
    const manager = database.dataSource.manager;
    return {
      reads: new TypeOrmSubmissionReads(manager),
      patterns: new TypeOrmPatternStore(manager),
      proposals: new TypeOrmProposalRepository(manager),
      history: new TypeOrmBookingHistoryStore(manager),
    };
  },
  {
    prepareCompany: async (companyId) => {
      await createCompany(database, companyId);
    },
  },
);
