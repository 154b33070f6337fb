import { randomUUID } from 'node:crypto';
import { aProposal, describeExecutionQueueContract, ManualClock, SequentialIdGenerator } from '@app/testing';
import { TypeOrmProposalRepository } from '../proposal/typeorm-proposal.repository';
import { createCompany, openIsolatedDatabase, type IsolatedDatabase } from '../testing/test-database';
import { TypeOrmUnitOfWork } from '../unit-of-work/typeorm-unit-of-work';
import { TypeOrmExecutionQueue } from './typeorm-execution.queue';

// The queue claims across companies: a database of its own, so that no other spec's proposals are taken.
let isolated: IsolatedDatabase;

beforeAll(async () => {
  isolated = await openIsolatedDatabase('executions');
});

afterAll(async () => {
  await isolated.dispose();
});

describeExecutionQueueContract(
  'TypeOrmExecutionQueue',
  () => {
    const dataSource = isolated.database.dataSource;
    return {
      queue: new TypeOrmExecutionQueue(dataSource),
      proposals: new TypeOrmProposalRepository(dataSource.manager),
      unitOfWork: new TypeOrmUnitOfWork(
        dataSource,
        new ManualClock(),
        new SequentialIdGenerator(Math.floor(Math.random() * 0xffff_ffff)),
      ),
    };
  },
  {
    prepareCompany: async (companyId) => {
      await createCompany(isolated.database, companyId);
    },
    teardown: async () => {
      await isolated.database.dataSource.query('DELETE FROM proposal_executions; DELETE FROM proposals');
    },
  },
);

describe('TypeOrmExecutionQueue', () => {
  const T0 = new Date('2026-11-20T10:00:00.000Z');
  const lease = new Date(T0.getTime() + 300_000);

  afterEach(async () => {
    await isolated.database.dataSource.query('DELETE FROM proposal_executions; DELETE FROM proposals');
  });

  async function approved(companyId: string, minutesAgo: number): Promise<string> {
    const template = aProposal('APPROVED', { companyId });
    const id = randomUUID();
    await new TypeOrmProposalRepository(isolated.database.dataSource.manager).insert({
      ...template,
      id,
      correlationId: id,
      executeAfter: new Date(T0.getTime() - minutesAgo * 60_000),
    });
    return id;
  }

  for (const [what, table] of [
    ['an execution row', 'proposal_executions WHERE proposal_id = $1'],
    ['a proposal row (a reject in progress)', 'proposals WHERE id = $1'],
  ] as const) {
    it(`skips ${what} another transaction holds locked and takes the next due one, without waiting`, async () => {
      const queue = new TypeOrmExecutionQueue(isolated.database.dataSource);
      const company = await createCompany(isolated.database);
      const oldest = await approved(company, 2);
      const next = await approved(company, 1);
      const holder = isolated.database.dataSource.createQueryRunner();
      await holder.connect();
      await holder.startTransaction();
      try {
        await holder.query(`SELECT 1 FROM ${table} FOR UPDATE`, [oldest]);

        expect((await queue.claimDue(T0, 1, lease, 'worker-a')).map((c) => c.proposalId)).toEqual([next]);
      } finally {
        await holder.rollbackTransaction();
        await holder.release();
      }
      expect((await queue.claimDue(T0, 1, lease, 'worker-a')).map((c) => c.proposalId)).toEqual([oldest]);
    });
  }

  it('puts a proposal in the queue in the statement that approves it, due at its executeAfter', async () => {
    const company = await createCompany(isolated.database);
    const rows = () =>
      isolated.database.dataSource.query<{ proposal_id: string; state: string; attempts: number; due: Date }[]>(
        'SELECT proposal_id, state, attempts, next_attempt_at AS due FROM proposal_executions ORDER BY due',
      );
    const inserted = await approved(company, 2);
    expect(await rows()).toEqual([
      { proposal_id: inserted, state: 'pending', attempts: 0, due: new Date(T0.getTime() - 120_000) },
    ]);

    // A proposal approved by an update (a reviewer's approval), due later.
    const template = aProposal('PROPOSED', { companyId: company });
    const reviewed = randomUUID();
    await new TypeOrmProposalRepository(isolated.database.dataSource.manager).insert({
      ...template,
      id: reviewed,
      correlationId: reviewed,
    });
    expect(await rows()).toHaveLength(1);
    await isolated.database.dataSource.query(
      "UPDATE proposals SET status = 'APPROVED', execute_after = $2 WHERE id = $1",
      [reviewed, new Date(T0.getTime() + 60_000)],
    );
    expect((await rows()).map((row) => [row.proposal_id, row.state, row.due])).toEqual([
      [inserted, 'pending', new Date(T0.getTime() - 120_000)],
      [reviewed, 'pending', new Date(T0.getTime() + 60_000)],
    ]);

    const queue = new TypeOrmExecutionQueue(isolated.database.dataSource);
    expect((await queue.claimDue(T0, 10, lease, 'worker-a')).map((c) => c.proposalId)).toEqual([inserted]);
  });

  it('claims proposals approved since the last claim, oldest first', async () => {
    const queue = new TypeOrmExecutionQueue(isolated.database.dataSource);
    const company = await createCompany(isolated.database);
    const first = await approved(company, 3);
    const second = await approved(company, 1);

    const claims = await queue.claimDue(T0, 5, lease, 'worker-a');
    expect(claims.map((c) => c.proposalId)).toEqual([first, second]);
    expect(new Set(claims.map((c) => c.attempt))).toEqual(new Set([1]));
  });
});
