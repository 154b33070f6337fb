import { Global, Module, type DynamicModule } from '@nestjs/common';
import { AuthorizationStateSigner } from '@app/application';
import { ProvidersModule } from '@app/providers';
import type { AppConfig } from '../config/app-config';
import { SandboxRuntime } from '../sandbox/sandbox-runtime';
import { DemoConnections } from '../sandbox/demo-connections';
import { BalanceController } from '../balance/balance.controller';
import { ContextController } from '../context/context.controller';
import { FactsController } from '../conversation/facts.controller';
import { EmployeesController } from '../employees/employees.controller';
import { providerSettings } from './provider-settings';
import { HistoryImportOnConnect, HistoryImportStarter } from '../patterns/history-import-on-connect';
import { OAuthCallbackController } from './oauth-callback.controller';
import { stateSigningKey } from './state-secret';

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
      imports: [
        ProvidersModule.registerAsync({
          useFactory: (sandbox: SandboxRuntime) => ({ settings: providerSettings(config, sandbox) }),
          inject: [SandboxRuntime],
        }),
      ],
      controllers: [
        OAuthCallbackController,
        ContextController,
        EmployeesController,
        FactsController,
        BalanceController,
      ],
      providers: [
        { provide: AuthorizationStateSigner, useFactory: () => new AuthorizationStateSigner(stateSigningKey(config)) },
        { provide: HistoryImportOnConnect, useValue: new HistoryImportOnConnect(config.historyImportOnConnect) },
        HistoryImportStarter,
        DemoConnections,
      ],
      // The provider ports and the state signer, for the use cases of ApplicationModule.
      exports: [ProvidersModule, AuthorizationStateSigner, DemoConnections],
    };
  }
}
