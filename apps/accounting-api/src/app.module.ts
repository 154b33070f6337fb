import { Logger, Module, type DynamicModule, type Provider } from '@nestjs/common';
import { APP_FILTER, APP_GUARD } from '@nestjs/core';
import { PassportModule } from '@nestjs/passport';
import { LoggerModule } from 'nestjs-pino';
import type { DestinationStream } from 'pino';
import type { Options as PinoHttpOptions } from 'pino-http';
import { Clock, IdGenerator } from '@app/domain';
import { PersistenceModule } from '@app/persistence';
import { AppConfig } from './config/app-config';
import { loggerParams } from './platform/logging';
import { SystemClock } from './platform/system-clock';
import { Draining } from './platform/shutdown';
import { UuidV7Generator } from './platform/uuid-v7.generator';
import { GatewayKeyStore } from './auth/gateway-key-store';
import { GatewayJwtStrategy } from './auth/gateway-jwt.strategy';
import { GatewayAuthGuard } from './auth/gateway-auth.guard';
import { KnownCompanies } from './auth/known-companies';
import { CompanyThrottlerGuard } from './http/company-throttler.guard';
import { rateLimitModule } from './http/rate-limit';
import { ProblemDetailsFilter } from './http/problem-details.filter';
import { JsonBodyGuard, UndeclaredQueryGuard } from './http/request-body';
import { MetricsModule } from './metrics/metrics.module';
import { MetricsController } from './metrics/metrics.controller';
import { HealthController } from './health/health.controller';
import { WhoamiController } from './whoami/whoami.controller';
import { ApplicationModule } from '@app/application';
import { ProposalListController } from './proposals/proposal-list.controller';
import { ProposalsController } from './proposals/proposals.controller';
import { ReviewController } from './review/review.controller';
import { ReimbursementsController } from './reimbursements/reimbursements.controller';
import { EventsController } from './events/events.controller';
import { EventSealerWorker } from './events/event-sealer.worker';
import { IdempotencyPurgeWorker } from './idempotency/idempotency-purge.worker';
import { PatternsController } from './patterns/patterns.controller';
import { CompanyConfigController } from './company-config/company-config.controller';
import { ProviderAccessModule } from './onboarding/provider-access.module';
import { OnboardingModule } from './onboarding/onboarding.module';
import { ExecutionModule } from './execution/execution.module';
import { ChecksModule } from './checks/checks.module';
import { OutboxDeliveryModule } from './notifications/outbox-delivery.module';
import { DailyCheckModule } from './daily-check/daily-check.module';
import { ConsoleAssetsController } from './console/console-assets.controller';
import { ConsoleCookies } from './console/console-cookies';
import { ConsoleLoginController } from './console/console-login.controller';
import { ConnectController } from './onboarding/connect.controller';
import { ConsoleSessionGuard } from './console/console-session.guard';
import { ConsoleViewers } from './console/console-viewers';
import { ReviewConsoleController } from './console/review.console-controller';
import { CompanyConsoleController } from './console/company.console-controller';
import { PatternsConsoleController } from './console/patterns.console-controller';
import { ChecksConsoleController } from './console/checks.console-controller';
import { ReimbursementsConsoleController } from './console/reimbursements.console-controller';
import { MessagesConsoleController } from './console/messages.console-controller';

export interface AppModuleOptions {
  config: AppConfig;
  /** Replaces the system clock (tests of expiry and key rotation). */
  clock?: Clock;
  /** Where logs go instead of stdout (tests that read what the service logged). */
  logDestination?: DestinationStream;
  /**
   * Which process this is. 'service' (the default): the HTTP edge and every background loop — the
   * executor, the daily check's schedule and start-up catch-up, the outbox dispatcher, the event
   * sealer and the purges. 'cli': the same adapters and use cases for one operator command, with
   * none of those loops and no HTTP edge; it never migrates by itself, and with embedded
   * PostgreSQL it connects to the running service's server (or starts one for the command).
   */
  role?: 'service' | 'cli';
  /**
   * Refuse a database role that could rewrite the audit trail, or a database with pending
   * migrations (DatabaseRefused). Default: in production. Tests that run production mode on the
   * shared test database as its superuser turn it off; test/database-roles.e2e-spec.ts tests it.
   */
  checkDatabaseRole?: boolean;
}

/**
 * The composition root of both processes: chooses an adapter for every port, and in the service
 * (`role: 'service'`) wires the HTTP edge and starts the background loops; the CLI (`role: 'cli'`)
 * boots the same adapters and use cases as an application context without them. To add an
 * endpoint, add its controller to `HTTP_CONTROLLERS` and declare @Access on each handler.
 */
@Module({})
export class AppModule {
  static forRoot({
    config,
    clock,
    logDestination,
    role = 'service',
    checkDatabaseRole,
  }: AppModuleOptions): DynamicModule {
    const service = role === 'service';
    const logging = loggerParams(config);
    const platform: Provider[] = [
      { provide: AppConfig, useValue: config },
      clock ? { provide: Clock, useValue: clock } : { provide: Clock, useClass: SystemClock },
      { provide: IdGenerator, useClass: UuidV7Generator },
      { provide: Draining, useValue: new Draining() },
      { provide: ConsoleCookies, useValue: new ConsoleCookies(config) },
    ];
    return {
      module: AppModule,
      global: true,
      imports: [
        LoggerModule.forRoot(
          logDestination
            ? {
                ...logging,
                pinoHttp: [{ ...(logging.pinoHttp as PinoHttpOptions), transport: undefined }, logDestination],
              }
            : logging,
        ),
        PassportModule,
        // The Prometheus registry of /metrics, with the daily check's counters on it.
        MetricsModule,
        // The rate limit's counters: Redis with REDIS_URL (shared by every instance), else in memory.
        rateLimitModule(config),
        PersistenceModule.forRoot({
          useFactory: () => ({
            url: config.databaseUrl,
            dataDir: config.dataDir,
            role: service ? 'service' : 'client',
            poolSize: service ? config.dbPoolSize : 2,
            // A request waits at most this for a connection, then answers 503; a CLI command waits longer.
            connectTimeoutMs: service ? config.dbConnectTimeoutMs : undefined,
            // Background work has a pool of its own (DB_WORKER_POOL_SIZE): it never takes the API's.
            backgroundPoolSize: service ? config.dbWorkerPoolSize : undefined,
            // A service started while PostgreSQL is down or restarting waits for it, within a bound.
            startDeadlineMs: service ? config.dbStartDeadlineMs : 0,
            onUnreachable: ({ attempt, retryInMs, reason }) => {
              // Start-up logs are buffered until the app's logger is set: these are wanted as they happen.
              Logger.flush();
              new Logger('Database').warn(
                `database not reachable (${reason}); attempt ${attempt}, retrying in ${retryInMs} ms ` +
                  `(gives up ${config.dbStartDeadlineMs} ms after the first attempt, DB_START_DEADLINE_MS)`,
              );
            },
            // A CLI command migrates only when it says so (`db migrate`, `company create` …).
            runMigrations: service && config.migrateOnBoot,
            migrationUrl: config.migrationDatabaseUrl,
            // Production never runs as a role that could rewrite the audit trail (exit 78).
            refuseUnsafeRole: service && (checkDatabaseRole ?? config.production),
          }),
          companyCacheTtlMs: config.companyCacheTtlMs,
          // The vault and the event chains' keys are wrapped by KEK_SOURCE's KMS.
          kms: () => config.kek,
        }),
        // Every use case and query; the executor and the daily check with their EXECUTOR_* / DAILY_CHECK_* options.
        ApplicationModule.forRoot({
          receiptMaxBytes: config.receiptMaxBytes,
          strictWebhookTargets: config.production,
          executor: config.executor.options,
          dailyCheck: config.dailyCheck.options,
        }),
        // The sandbox and the providers' return address; then onboarding, context, employees, balance (last route).
        ProviderAccessModule.forRoot(config, role),
        OnboardingModule.forRoot(config),
        // The executor, the checks and the daily 07:00 job (EXECUTOR_*, DAILY_CHECK_*); their loops
        // run only in the service.
        ExecutionModule.forRoot(config.executor, { worker: service }),
        ChecksModule,
        // Delivery of the notification outbox to the companies' channels (OUTBOX_*).
        OutboxDeliveryModule.forRoot(config, { dispatch: service }),
        DailyCheckModule.forRoot(config.dailyCheck, { schedule: service }),
      ],
      controllers: service ? HTTP_CONTROLLERS : [],
      providers: [...platform, ...(service ? serviceProviders() : [])],
      exports: platform,
    };
  }
}

const HTTP_CONTROLLERS = [
  HealthController,
  MetricsController,
  WhoamiController,
  ProposalsController,
  ProposalListController,
  ReviewController,
  ReimbursementsController,
  EventsController,
  PatternsController,
  CompanyConfigController,
  // The web console (docs/console.md): its way in, its static files, its pages. The API's
  // connect route answers with a console login link, so it lives beside them.
  ConsoleLoginController,
  ConnectController,
  ConsoleAssetsController,
  ReviewConsoleController,
  CompanyConsoleController,
  PatternsConsoleController,
  ChecksConsoleController,
  ReimbursementsConsoleController,
  MessagesConsoleController,
];

/** The service's own providers: the HTTP edge's guards and filter, and the background workers. */
function serviceProviders(): Provider[] {
  return [
    GatewayKeyStore,
    GatewayJwtStrategy,
    KnownCompanies,
    ConsoleViewers,
    // Seals new events into the hash chains (EVENT_SEAL_INTERVAL_MS), deletes expired
    // idempotency keys (IDEMPOTENCY_PURGE_INTERVAL_MS).
    EventSealerWorker,
    IdempotencyPurgeWorker,
    // Guards run in this order: who is calling (§2: a token, or a console session), then how
    // often (per company + sub).
    { provide: APP_GUARD, useClass: GatewayAuthGuard },
    { provide: APP_GUARD, useClass: ConsoleSessionGuard },
    { provide: APP_GUARD, useClass: CompanyThrottlerGuard },
    // After those: a query the route does not declare is refused; then the JSON body is read. Both
    // act only before the handler, so they are guards too: no interceptor is bound, and Nest calls
    // the handler without its interceptor pipeline.
    { provide: APP_GUARD, useClass: UndeclaredQueryGuard },
    { provide: APP_GUARD, useClass: JsonBodyGuard },
    { provide: APP_FILTER, useClass: ProblemDetailsFilter },
  ];
}
