import { randomUUID } from 'node:crypto';
import { ConcurrencyConflict, Proposal } from '@app/domain';
import { aProposal, describeProposalRepositoryContract } from '@app/testing';
import type { Database } from '../database/database';
import { createCompany, openTestDatabase } from '../testing/test-database';
import { TypeOrmProposalRepository } from './typeorm-proposal.repository';

let database: Database;

beforeAll(async () => {
  database = await openTestDatabase();
});

afterAll(async () => {
  await database.close();
});

describeProposalRepositoryContract(
  'TypeOrmProposalRepository',
  () => new TypeOrmProposalRepository(database.dataSource.manager),
  {
    prepareCompany: async (companyId) => {
      await createCompany(database, companyId);
    },
  },
);

describe('TypeOrmProposalRepository', () => {
  let repository: TypeOrmProposalRepository;
  let company: string;

  const proposalOf = (companyId: string, overrides: Partial<Proposal> = {}): Proposal => {
    const id = randomUUID();
    return { ...aProposal('PROPOSED', { companyId }), id, correlationId: id, ...overrides };
  };

  beforeEach(async () => {
    repository = new TypeOrmProposalRepository(database.dataSource.manager);
    company = await createCompany(database);
  });

  it('refuses to update a proposal through another company', async () => {
    const other = await createCompany(database);
    const proposal = proposalOf(company);
    await repository.insert(proposal);

    await expect(
      repository.update({ ...proposal, companyId: other, status: 'REJECTED', version: 2 }, 1),
    ).rejects.toBeInstanceOf(ConcurrencyConflict);
    expect((await repository.findById(company, proposal.id))?.status).toBe('PROPOSED');
    expect((await repository.listByStatus(other, 'PROPOSED', { limit: 200 })).items).toEqual([]);
  });

  it('keeps the accounting date and minor units exactly', async () => {
    const proposal = proposalOf(company, { date: '2026-01-31', amount: 999_999_999_99 });
    await repository.insert(proposal);

    const found = await repository.findById(company, proposal.id);

    expect(found?.date).toBe('2026-01-31');
    expect(found?.amount).toBe(999_999_999_99);
  });

  it('lets exactly one of two updates in open transactions win (two connections)', async () => {
    const proposal = proposalOf(company);
    await repository.insert(proposal);
    const [first, second] = [database.dataSource.createQueryRunner(), database.dataSource.createQueryRunner()];
    try {
      await first.startTransaction();
      await second.startTransaction();
      await new TypeOrmProposalRepository(first.manager).update({ ...proposal, status: 'APPROVED', version: 2 }, 1);
      const loser = new TypeOrmProposalRepository(second.manager).update(
        { ...proposal, status: 'REJECTED', version: 2 },
        1,
      );
      const outcome = expect(loser).rejects.toBeInstanceOf(ConcurrencyConflict);
      await first.commitTransaction();
      await outcome;
    } finally {
      for (const runner of [second, first]) {
        if (runner.isTransactionActive) await runner.rollbackTransaction();
        await runner.release();
      }
    }
    expect((await repository.findById(company, proposal.id))?.status).toBe('APPROVED');
  });
});
