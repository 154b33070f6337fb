import {
  Global,
  Module,
  type DynamicModule,
  type OnApplicationShutdown,
  Inject,
  Injectable,
  type Provider,
} from '@nestjs/common';
import { DataSource } from 'typeorm';
import {
  Clock,
  CompanyRepository,
  CompanySettingsStore,
  EventStore,
  IdGenerator,
  PatternStore,
  ProposalRepository,
  BookingHistoryStore,
  AuthorizationRequestStore,
  ConsoleSessionStore,
  CompanyContextStore,
  EmployeeMappingRepository,
  EventChainVerification,
  ProviderConnectionRepository,
  ProviderTokenStore,
  TokenVault,
} from '@app/domain';
import { OutboxRepository } from '@app/notifications';
import { SharedRequestSlots } from '@app/providers';
import { Kms, VaultModule, WrappedDekRepository, type KmsSettings } from '@app/vault';
import {
  DailyCheckRuns,
  ExecutionQueue,
  IdempotencyStore,
  ReceiptStore,
  SubmissionReads,
  SubmissionStore,
  UnitOfWork,
} from '@app/application';
import { Database, type DatabaseOptions } from './database/database';
import { TypeOrmCompanyRepository } from './company/typeorm-company.repository';
import { TypeOrmEventStore } from './event-store/typeorm-event-store';
import { TypeOrmProposalRepository } from './proposal/typeorm-proposal.repository';
import { TypeOrmPatternStore } from './pattern/typeorm-pattern.store';
import { TypeOrmBookingHistoryStore } from './history/typeorm-booking-history.store';
import { TypeOrmCompanySettingsStore } from './settings/typeorm-company-settings.store';
import { CachedCompanyContextStore, CachedCompanySettingsStore } from './cache/cached-company-stores';
import { TypeOrmOutboxRepository } from './outbox/typeorm-outbox.repository';
import { TypeOrmWrappedDekRepository } from './vault/typeorm-wrapped-dek.repository';
import { TypeOrmUnitOfWork } from './unit-of-work/typeorm-unit-of-work';
import { TypeOrmReceiptStore } from './receipts/typeorm-receipt.store';
import { TypeOrmSubmissionStore } from './proposal/typeorm-submission.store';
import { TypeOrmSubmissionReads } from './proposal/typeorm-submission-reads';
import { TypeOrmIdempotencyStore } from './idempotency/typeorm-idempotency.store';
import { TypeOrmExecutionQueue } from './execution/typeorm-execution.queue';
import { TypeOrmDailyCheckRuns } from './daily-check/typeorm-daily-check-runs';
import { TypeOrmAuthorizationRequestStore } from './provider-connection/typeorm-authorization-request.store';
import { TypeOrmCompanyContextStore } from './context/typeorm-company-context.store';
import { TypeOrmEmployeeMappingRepository } from './employees/typeorm-employee-mapping.repository';
import { TypeOrmConsoleSessionStore } from './console/typeorm-console-session.store';
import { PostgresSharedRequestSlots } from './request-slots/postgres-shared-request-slots';
import { EventChainKeys } from './event-store/event-chain-keys';
import { EventSealer } from './event-store/event-sealer';
import { EventChainVerifier, TypeOrmEventChainVerification } from './event-store/event-chain-verifier';
import { TypeOrmProviderConnectionRepository } from './provider-connection/typeorm-provider-connection.repository';
import { TypeOrmProviderTokenStore } from './provider-connection/typeorm-provider-token-store';

/** A port bound to its TypeORM adapter over the data source's (non-transactional) manager. */
function overManager<T>(
  port: abstract new (...args: never[]) => T,
  adapter: new (manager: DataSource['manager']) => T,
): Provider {
  return {
    provide: port,
    useFactory: (dataSource: DataSource) => new adapter(dataSource.manager),
    inject: [DataSource],
  };
}

/**
 * Closes the database (and the embedded server) when the application shuts down, after the shared
 * request slots' own connections.
 */
@Injectable()
class DatabaseLifecycle implements OnApplicationShutdown {
  constructor(
    @Inject(Database) private readonly database: Database,
    @Inject(SharedRequestSlots) private readonly requestSlots: PostgresSharedRequestSlots,
  ) {}

  async onApplicationShutdown(): Promise<void> {
    await this.requestSlots.close();
    await this.database.close();
  }
}

/**
 * The persistence adapters. `forRoot` opens the database (DATABASE_URL's PostgreSQL or the embedded one),
 * runs migrations under the advisory lock when asked, and binds each domain port to its
 * TypeORM adapter.
 *
 * The standalone adapters work over `dataSource.manager` (each call its own statement or
 * transaction). Writes that must commit together go through `UnitOfWork.run`, which hands out
 * transaction-bound instances; its outbox notifier takes the Clock and IdGenerator the application
 * provides (required). Company settings and context, read by every proposal, go through a
 * per-process cache of `companyCacheTtlMs`.
 *
 * The vault (`VaultModule`: `TokenVault` and `Kms`, over the wrapped DEKs stored here) is built
 * with the KMS settings given (`kms`, KEK_SOURCE) and exported with the rest, because the adapters
 * that seal with it live here too: the providers' connections and token store (`TokenVault`) and
 * the event chains' keys, sealer and verifiers (`Kms`). One of each per process: the keys keep
 * the unwrapped versions, the sealer the low-water mark of its scan.
 */
@Global()
@Module({})
export class PersistenceModule {
  static forRoot(options: {
    useFactory: (...deps: never[]) => DatabaseOptions;
    inject?: unknown[];
    /** How long company settings and context are cached per process (0: not cached). */
    companyCacheTtlMs?: number;
    /** Longest wait of a booking's request for a provider's shared request slot, ms (default 30 000). */
    requestSlotWaitMs?: number;
    /** The KMS that wraps the companies' DEKs and the chains' keys (KEK_SOURCE). */
    kms: () => KmsSettings | Promise<KmsSettings>;
  }): DynamicModule {
    const cacheTtlMs = options.companyCacheTtlMs ?? 0;
    return {
      module: PersistenceModule,
      imports: [VaultModule.register({ imports: [], useFactory: options.kms })],
      providers: [
        {
          provide: Database,
          useFactory: (...deps: never[]) => Database.open(options.useFactory(...deps)),
          inject: (options.inject ?? []) as never[],
        },
        { provide: DataSource, useFactory: (db: Database) => db.dataSource, inject: [Database] },
        // A provider's one request slot across instances (Fiken's): advisory locks on connections of their own.
        {
          provide: SharedRequestSlots,
          useFactory: (dataSource: DataSource) =>
            new PostgresSharedRequestSlots(dataSource, { waitMs: options.requestSlotWaitMs }),
          inject: [DataSource],
        },
        DatabaseLifecycle,
        { provide: CompanyRepository, useClass: TypeOrmCompanyRepository },
        overManager(EventStore, TypeOrmEventStore),
        overManager(ProposalRepository, TypeOrmProposalRepository),
        overManager(PatternStore, TypeOrmPatternStore),
        overManager(BookingHistoryStore, TypeOrmBookingHistoryStore),
        {
          provide: CompanySettingsStore,
          useFactory: (dataSource: DataSource) =>
            new CachedCompanySettingsStore(new TypeOrmCompanySettingsStore(dataSource.manager), cacheTtlMs),
          inject: [DataSource],
        },
        overManager(OutboxRepository, TypeOrmOutboxRepository),
        overManager(WrappedDekRepository, TypeOrmWrappedDekRepository),
        overManager(AuthorizationRequestStore, TypeOrmAuthorizationRequestStore),
        {
          provide: CompanyContextStore,
          useFactory: (dataSource: DataSource) =>
            new CachedCompanyContextStore(new TypeOrmCompanyContextStore(dataSource.manager), cacheTtlMs),
          inject: [DataSource],
        },
        overManager(EmployeeMappingRepository, TypeOrmEmployeeMappingRepository),
        {
          provide: UnitOfWork,
          useFactory: (dataSource: DataSource, clock: Clock, ids: IdGenerator) =>
            new TypeOrmUnitOfWork(dataSource, clock, ids),
          inject: [DataSource, Clock, IdGenerator],
        },
        {
          // Standalone: a submission in one statement, a transaction by itself.
          provide: SubmissionStore,
          useFactory: (dataSource: DataSource, clock: Clock, ids: IdGenerator) =>
            new TypeOrmSubmissionStore(dataSource.manager, clock, ids),
          inject: [DataSource, Clock, IdGenerator],
        },
        // What a submission reads before it scores, in one statement.
        overManager(SubmissionReads, TypeOrmSubmissionReads),
        overManager(ReceiptStore, TypeOrmReceiptStore),
        overManager(ConsoleSessionStore, TypeOrmConsoleSessionStore),
        // Standalone, for the purge of expired keys; requests use the unit of work's.
        overManager(IdempotencyStore, TypeOrmIdempotencyStore),
        {
          provide: ExecutionQueue,
          useFactory: (dataSource: DataSource) => new TypeOrmExecutionQueue(dataSource),
          inject: [DataSource],
        },
        {
          provide: DailyCheckRuns,
          useFactory: (dataSource: DataSource) => new TypeOrmDailyCheckRuns(dataSource),
          inject: [DataSource],
        },
        // The sealed provider credentials, through the vault.
        {
          provide: ProviderConnectionRepository,
          useFactory: (dataSource: DataSource, vault: TokenVault, clock: Clock, ids: IdGenerator) =>
            new TypeOrmProviderConnectionRepository(dataSource, vault, clock, ids),
          inject: [DataSource, TokenVault, Clock, IdGenerator],
        },
        {
          provide: ProviderTokenStore,
          useFactory: (dataSource: DataSource, vault: TokenVault, clock: Clock, ids: IdGenerator) =>
            new TypeOrmProviderTokenStore(dataSource, vault, clock, ids),
          inject: [DataSource, TokenVault, Clock, IdGenerator],
        },
        // The hash chains: their keys (wrapped by the KMS), the sealer and the verifiers.
        {
          provide: EventChainKeys,
          useFactory: (dataSource: DataSource, kms: Kms) => new EventChainKeys(dataSource.manager, kms),
          inject: [DataSource, Kms],
        },
        {
          provide: EventSealer,
          useFactory: (dataSource: DataSource, keys: EventChainKeys) => new EventSealer(dataSource.manager, keys),
          inject: [DataSource, EventChainKeys],
        },
        {
          provide: EventChainVerifier,
          useFactory: (dataSource: DataSource, keys: EventChainKeys) =>
            new EventChainVerifier(dataSource.manager, keys),
          inject: [DataSource, EventChainKeys],
        },
        {
          provide: EventChainVerification,
          useFactory: (dataSource: DataSource, keys: EventChainKeys) =>
            new TypeOrmEventChainVerification(dataSource.manager, keys),
          inject: [DataSource, EventChainKeys],
        },
      ],
      exports: [
        Database,
        DataSource,
        CompanyRepository,
        EventStore,
        ProposalRepository,
        PatternStore,
        BookingHistoryStore,
        CompanySettingsStore,
        OutboxRepository,
        WrappedDekRepository,
        UnitOfWork,
        SubmissionStore,
        SubmissionReads,
        AuthorizationRequestStore,
        CompanyContextStore,
        EmployeeMappingRepository,
        ReceiptStore,
        IdempotencyStore,
        ExecutionQueue,
        DailyCheckRuns,
        ConsoleSessionStore,
        SharedRequestSlots,
        ProviderConnectionRepository,
        ProviderTokenStore,
        EventChainKeys,
        EventSealer,
        EventChainVerifier,
        EventChainVerification,
        VaultModule,
      ],
    };
  }
}
