import { Module, type DynamicModule, type Provider } from '@nestjs/common';
import { APP_FILTER, APP_GUARD } from '@nestjs/core';
import { PassportModule } from '@nestjs/passport';
import { ThrottlerModule } from '@nestjs/throttler';
import { LoggerModule } from 'nestjs-pino';
import { Clock, IdGenerator } from '@app/domain';
import { PersistenceModule } from '@app/persistence';
import { AppConfig } from './config/app-config';
import { loggerParams } from './platform/logging';
import { SystemClock } from './platform/system-clock';
import { UuidV7Generator } from './platform/uuid-v7.generator';
import { GatewayKeyStore } from './auth/gateway-key-store';
import { GatewayJwtStrategy } from './auth/gateway-jwt.strategy';
import { GatewayAuthGuard } from './auth/gateway-auth.guard';
import { KnownCompanies } from './auth/known-companies';
import { CompanyThrottlerGuard } from './http/company-throttler.guard';
import { ProblemDetailsFilter } from './http/problem-details.filter';
import { HttpMetrics } from './metrics/http-metrics';
import { MetricsController } from './metrics/metrics.controller';
import { HealthController } from './health/health.controller';
import { WhoamiController } from './whoami/whoami.controller';

export interface AppModuleOptions {
  config: AppConfig;
  /** Replaces the system clock (tests of expiry and key rotation). */
  clock?: Clock;
}

/**
 * The composition root: chooses an adapter for every port and wires the HTTP edge. To add an
 * endpoint, add its controller to `controllers` and declare @Access on each handler.
 */
@Module({})
export class AppModule {
  static forRoot({ config, clock }: AppModuleOptions): DynamicModule {
    const platform: Provider[] = [
      { provide: AppConfig, useValue: config },
      clock ? { provide: Clock, useValue: clock } : { provide: Clock, useClass: SystemClock },
      { provide: IdGenerator, useClass: UuidV7Generator },
      { provide: HttpMetrics, useValue: new HttpMetrics() },
    ];
    return {
      module: AppModule,
      global: true,
      imports: [
        LoggerModule.forRoot(loggerParams(config)),
        PassportModule,
        ThrottlerModule.forRoot({ throttlers: [{ ttl: 60_000, limit: config.rateLimitPerMinute }] }),
        PersistenceModule.forRoot({
          useFactory: () => ({
            url: config.databaseUrl,
            dataDir: config.dataDir,
            role: 'service',
            poolSize: config.dbPoolSize,
            runMigrations: config.migrateOnBoot,
          }),
        }),
      ],
      controllers: [HealthController, MetricsController, WhoamiController],
      providers: [
        ...platform,
        GatewayKeyStore,
        GatewayJwtStrategy,
        KnownCompanies,
        // Guards run in this order: who is calling (§2), then how often (per company + sub).
        { provide: APP_GUARD, useClass: GatewayAuthGuard },
        { provide: APP_GUARD, useClass: CompanyThrottlerGuard },
        { provide: APP_FILTER, useClass: ProblemDetailsFilter },
      ],
      exports: platform,
    };
  }
}
