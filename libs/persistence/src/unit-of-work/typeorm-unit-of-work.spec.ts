import { randomUUID } from 'node:crypto';
import { Test } from '@nestjs/testing';
import { Global, Module } from '@nestjs/common';
import { UnitOfWork } from '@app/application';
import {
  Clock,
  CompanyRepository,
  CompanySettingsStore,
  ConcurrencyConflict,
  EventChainVerification,
  EventStore,
  IdGenerator,
  OutboundMessage,
  PatternStore,
  ProposalRepository,
  ProviderConnectionRepository,
  ProviderTokenStore,
  TokenVault,
} from '@app/domain';
import { OutboxNotifier, OutboxRepository } from '@app/notifications';
import {
  aChainEvent,
  aProposal,
  describeIdempotencyStoreContract,
  describeNotifierContract,
  describeReceiptStoreContract,
  describeSubmissionStoreContract,
  describeUnitOfWorkContract,
  ManualClock,
  SequentialIdGenerator,
} from '@app/testing';
import { WrappedDekRepository } from '@app/vault';
import type { Database } from '../database/database';
import { EventChainVerifier } from '../event-store/event-chain-verifier';
import { EventSealer } from '../event-store/event-sealer';
import { TypeOrmEventStore } from '../event-store/typeorm-event-store';
import { TypeOrmOutboxRepository } from '../outbox/typeorm-outbox.repository';
import { TypeOrmPatternStore } from '../pattern/typeorm-pattern.store';
import { PersistenceModule } from '../persistence.module';
import { TypeOrmProposalRepository } from '../proposal/typeorm-proposal.repository';
import { TypeOrmReceiptStore } from '../receipts/typeorm-receipt.store';
import { TypeOrmSubmissionStore } from '../proposal/typeorm-submission.store';
import { createCompany, openTestDatabase } from '../testing/test-database';
import { testEventChainKeys, testKekSource } from '../testing/test-keyring';
import { TypeOrmUnitOfWork } from './typeorm-unit-of-work';

let database: Database;

beforeAll(async () => {
  database = await openTestDatabase();
});

afterAll(async () => {
  await database.close();
});

const prepareCompany = async (companyId: string): Promise<void> => {
  await createCompany(database, companyId);
};

/** Ids that sort in creation order, unique across runs against a database that keeps its rows. */
const orderedIds = () => new SequentialIdGenerator(Math.floor(Math.random() * 0xffff_ffff));

/** The outbox rows still waiting for one company, oldest first, as the messages handed over. */
async function pendingMessages(companyId: string): Promise<OutboundMessage[]> {
  const rows: { company_id: string; target: string; kind: string; payload: object }[] = await database.dataSource.query(
    `SELECT company_id, target, kind, payload FROM notification_outbox
      WHERE company_id = $1 AND delivered_at IS NULL AND dead_at IS NULL ORDER BY created_at, id`,
    [companyId],
  );
  return rows.map(
    (row) =>
      ({ companyId: row.company_id, target: row.target, kind: row.kind, payload: row.payload }) as OutboundMessage,
  );
}

describeUnitOfWorkContract(
  'TypeOrmUnitOfWork',
  () => {
    const manager = database.dataSource.manager;
    return {
      unitOfWork: new TypeOrmUnitOfWork(database.dataSource, new ManualClock(), orderedIds()),
      events: new TypeOrmEventStore(manager),
      proposals: new TypeOrmProposalRepository(manager),
      patterns: new TypeOrmPatternStore(manager),
      pendingMessages,
    };
  },
  { prepareCompany },
);

describeReceiptStoreContract(
  'TypeOrmReceiptStore',
  () => ({
    unitOfWork: new TypeOrmUnitOfWork(database.dataSource, new ManualClock(), orderedIds()),
    receipts: new TypeOrmReceiptStore(database.dataSource.manager),
  }),
  { prepareCompany },
);

describeSubmissionStoreContract(
  'TypeOrmSubmissionStore',
  () => {
    const manager = database.dataSource.manager;
    return {
      submissions: new TypeOrmSubmissionStore(manager, new ManualClock(), orderedIds()),
      unitOfWork: new TypeOrmUnitOfWork(database.dataSource, new ManualClock(), orderedIds()),
      events: new TypeOrmEventStore(manager),
      proposals: new TypeOrmProposalRepository(manager),
      receipts: new TypeOrmReceiptStore(manager),
      pendingMessages,
    };
  },
  { prepareCompany },
);

describeIdempotencyStoreContract(
  'TypeOrmIdempotencyStore',
  () => ({ unitOfWork: new TypeOrmUnitOfWork(database.dataSource, new ManualClock(), orderedIds()) }),
  { prepareCompany },
);

describeNotifierContract(
  'OutboxNotifier over TypeOrmOutboxRepository',
  () => ({
    notifier: new OutboxNotifier(
      new TypeOrmOutboxRepository(database.dataSource.manager),
      new ManualClock(),
      orderedIds(),
    ),
    pending: pendingMessages,
  }),
  { prepareCompany },
);

describe('TypeOrmUnitOfWork', () => {
  let unitOfWork: TypeOrmUnitOfWork;
  let company: string;

  beforeEach(async () => {
    unitOfWork = new TypeOrmUnitOfWork(database.dataSource, new ManualClock(), orderedIds());
    company = await createCompany(database);
  });

  it('rolls back the read model and the outbox when the events lose a race (ConcurrencyConflict)', async () => {
    const proposal = { ...aProposal('PROPOSED', { companyId: company }), id: randomUUID() };
    const chain = proposal.id;
    await new TypeOrmEventStore(database.dataSource.manager).append([aChainEvent(company, chain, 1)]);

    await expect(
      unitOfWork.run(async (ports) => {
        await ports.proposals.insert({ ...proposal, correlationId: chain });
        await ports.notifier.notify([
          { companyId: company, target: 'review', kind: 'proposal_needs_review', payload: { id: 1 } },
        ]);
        await ports.events.append([aChainEvent(company, chain, 1)]);
      }),
    ).rejects.toBeInstanceOf(ConcurrencyConflict);

    expect(await new TypeOrmProposalRepository(database.dataSource.manager).findById(company, proposal.id)).toBeNull();
    expect(await pendingMessages(company)).toEqual([]);
  });

  it('reads its own uncommitted writes through the ports it hands out', async () => {
    const chain = randomUUID();

    const seen = await unitOfWork.run(async (ports) => {
      await ports.events.append([aChainEvent(company, chain, 1)]);
      return ports.events.readChain(company, chain);
    });

    expect(seen).toHaveLength(1);
  });

  it('runs concurrent units that append to one company, whose events the sealer then chains without a fork', async () => {
    await Promise.all(
      Array.from({ length: 6 }, () =>
        unitOfWork.run(async (ports) => {
          const chain = randomUUID();
          await ports.events.append([aChainEvent(company, chain, 1), aChainEvent(company, chain, 2)]);
        }),
      ),
    );

    const keys = testEventChainKeys(database.dataSource.manager);
    await new EventSealer(database.dataSource.manager, keys).sealPending({ companyId: company });
    expect(await new EventChainVerifier(database.dataSource.manager, keys).verify(company)).toMatchObject({
      ok: true,
      eventsChecked: 12,
      pending: 0,
    });
  });
});

/** What the application module provides the persistence module with in the service. */
@Global()
@Module({
  providers: [
    { provide: Clock, useValue: new ManualClock() },
    { provide: IdGenerator, useValue: orderedIds() },
  ],
  exports: [Clock, IdGenerator],
})
class TimeAndIds {}

describe('PersistenceModule', () => {
  it('binds every port to its TypeORM adapter', async () => {
    const moduleRef = await Test.createTestingModule({
      imports: [
        TimeAndIds,
        PersistenceModule.forRoot({
          useFactory: () => ({ url: process.env.DATABASE_URL, dataDir: '/nonexistent', role: 'client', poolSize: 2 }),
          kms: () => ({ kind: 'local', keyringPath: testKekSource().slice('local:'.length) }),
        }),
      ],
    }).compile();
    try {
      const ports: [abstract new (...args: never[]) => unknown, string][] = [
        [CompanyRepository, 'TypeOrmCompanyRepository'],
        [EventStore, 'TypeOrmEventStore'],
        [ProposalRepository, 'TypeOrmProposalRepository'],
        [PatternStore, 'TypeOrmPatternStore'],
        // Read through the per-process cache (TtlCache) over TypeOrmCompanySettingsStore.
        [CompanySettingsStore, 'CachedCompanySettingsStore'],
        [UnitOfWork, 'TypeOrmUnitOfWork'],
        [OutboxRepository, 'TypeOrmOutboxRepository'],
        [WrappedDekRepository, 'TypeOrmWrappedDekRepository'],
        // The adapters that seal with the vault, which the module builds with the KMS it is given.
        [TokenVault, 'EnvelopeTokenVault'],
        [ProviderConnectionRepository, 'TypeOrmProviderConnectionRepository'],
        [ProviderTokenStore, 'TypeOrmProviderTokenStore'],
        [EventChainVerification, 'TypeOrmEventChainVerification'],
        [EventSealer, 'EventSealer'],
        [EventChainVerifier, 'EventChainVerifier'],
      ];
      for (const [port, adapter] of ports) {
        expect((moduleRef.get(port) as object).constructor.name).toBe(adapter);
      }
      const company = await createCompany(database);
      expect(await moduleRef.get(UnitOfWork).run(async (tx) => tx.notifier.notify([]))).toEqual([]);
      expect(await moduleRef.get(CompanySettingsStore).get(company)).toBeDefined();
    } finally {
      await moduleRef.close();
    }
  });
});
