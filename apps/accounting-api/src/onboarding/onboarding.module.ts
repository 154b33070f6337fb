import { Global, Module, type DynamicModule } from '@nestjs/common';
import { ProviderGrantExchange } from '@app/domain';
import {
  ApplicationContext,
  AuthorizationStateSigner,
  CompanyContextService,
  CompleteConnection,
  ConnectionOverview,
  EmployeeDirectory,
  ImportBookingHistoryHandler,
  ProviderConnections,
  ReadBalances,
  StartConnection,
} from '@app/application';
import { ProvidersModule, type ProvidersModuleOptions } from '@app/providers';
import type { AppConfig } from '../config/app-config';
import { SandboxRuntime } from '../sandbox/sandbox-runtime';
import { DemoConnections } from '../sandbox/demo-connections';
import { BalanceController } from '../balance/balance.controller';
import { ContextController } from '../context/context.controller';
import { FactsController } from '../conversation/facts.controller';
import { EmployeesController } from '../employees/employees.controller';
import { GrantExchangeOptions, HttpProviderGrantExchange } from './http-provider-grant-exchange';
import { HistoryImportOnConnect, HistoryImportStarter } from '../patterns/history-import-on-connect';
import { OAuthCallbackController } from './oauth-callback.controller';
import { stateSigningKey } from './state-secret';

/** The application's credentials at the providers: the sandbox's in sandbox mode, else the configured ones. */
function providerCredentials(config: AppConfig): GrantExchangeOptions {
  if (config.providerSandbox) {
    const c = SandboxRuntime.credentials;
    return new GrantExchangeOptions(
      c.tripletexConsumerToken,
      c.fikenClientId,
      c.fikenClientSecret,
      config.providerTimeoutMs,
    );
  }
  return new GrantExchangeOptions(
    config.tripletexConsumerToken,
    config.fikenClientId,
    config.fikenClientSecret,
    config.providerTimeoutMs,
  );
}

function providersOptions(config: AppConfig): ProvidersModuleOptions {
  const credentials = providerCredentials(config);
  const missing = [
    credentials.tripletexConsumerToken ? null : 'TRIPLETEX_CONSUMER_TOKEN',
    credentials.fikenClientId ? null : 'FIKEN_CLIENT_ID and FIKEN_CLIENT_SECRET',
  ].filter((m): m is string => m !== null);
  if (missing.length > 0) {
    throw new Error(`${missing.join(' and ')} must be configured when PROVIDER_SANDBOX is off`);
  }
  const resilience = { timeoutMs: config.providerTimeoutMs, retries: config.providerRetries };
  return {
    tripletex: { consumerToken: credentials.tripletexConsumerToken!, resilience },
    fiken: {
      clientId: credentials.fikenClientId!,
      clientSecret: credentials.fikenClientSecret!,
      maxConcurrentRequests: config.fikenMaxConcurrentRequests,
      resilience,
    },
  };
}

/**
 * Onboarding (the OAuth callback; the API's connect route, a console link, is registered with the
 * console in AppModule), the company context, the employee mapping and
 * conversation facts, and the live balance: their use cases, the provider adapters they call and
 * their routes. The balance route (`/v1/{provider}/balance`) is registered last.
 */
@Global()
@Module({})
export class OnboardingModule {
  static forRoot(config: AppConfig): DynamicModule {
    return {
      module: OnboardingModule,
      imports: [ProvidersModule.registerAsync({ useFactory: () => providersOptions(config) })],
      controllers: [
        OAuthCallbackController,
        ContextController,
        EmployeesController,
        FactsController,
        BalanceController,
      ],
      providers: [
        { provide: GrantExchangeOptions, useValue: providerCredentials(config) },
        { provide: ProviderGrantExchange, useClass: HttpProviderGrantExchange },
        { provide: AuthorizationStateSigner, useFactory: () => new AuthorizationStateSigner(stateSigningKey(config)) },
        ProviderConnections,
        ApplicationContext,
        ImportBookingHistoryHandler,
        { provide: HistoryImportOnConnect, useValue: new HistoryImportOnConnect(config.historyImportOnConnect) },
        HistoryImportStarter,
        CompanyContextService,
        StartConnection,
        CompleteConnection,
        ConnectionOverview,
        EmployeeDirectory,
        ReadBalances,
        DemoConnections,
      ],
      exports: [
        ProvidersModule,
        ProviderConnections,
        ImportBookingHistoryHandler,
        CompanyContextService,
        EmployeeDirectory,
        DemoConnections,
        // For the web console's company page.
        StartConnection,
        ConnectionOverview,
      ],
    };
  }
}
