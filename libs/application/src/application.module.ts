import { Module, type DynamicModule } from '@nestjs/common';
import { ConfidenceEngine } from '@app/domain';
import { ApplicationOptions } from './application.options';
import { ApproveProposalHandler } from './approve-proposal/approve-proposal.handler';
import { GetCompanySettingsHandler, UpdateCompanySettingsHandler } from './company-config/company-config.handlers';
import { GetProposalHandler } from './get-proposal/get-proposal.handler';
import { GetProposalChain } from './proposal-chain/proposal-chain.query';
import { LatestDailyCheck } from './daily-check/latest-daily-check.query';
import { GetCompanyProfile } from './company-profile/company-profile.query';
import { GetProposalReceipt } from './receipts/get-proposal-receipt.query';
import { IdempotentExecution } from './idempotency/idempotent-execution';
import { ListEventsHandler } from './list-events/list-events.handler';
import { ListProposalsHandler } from './list-proposals/list-proposals.handler';
import {
  CreatePatternHandler,
  EditPatternHandler,
  ListPatternsHandler,
  RetirePatternHandler,
} from './manage-patterns/manage-patterns.handlers';
import { ConfirmSuggestionsHandler, ListSuggestionsHandler } from './history-suggestions/history-suggestions.handlers';
import { RejectProposalHandler } from './reject-proposal/reject-proposal.handler';
import { ListReimbursementsHandler } from './reimbursements/list-reimbursements.handler';
import { MarkReimbursementPaidHandler } from './reimbursements/mark-reimbursement-paid.handler';
import { ApplicationContext } from './shared/domain-context.provider';
import { ConsoleAccess } from './console/console-access';
import { DeleteCompanyHandler } from './delete-company/delete-company.handler';
import { PdfCheck } from './receipts/pdf-check';
import { ReviewQueue } from './review-queue/review-queue';
import { SubmitProposalHandler } from './submit-proposal/submit-proposal.handler';
import { ProviderConnections } from './onboarding/provider-connections';
import { StartConnection } from './onboarding/start-connection.handler';
import { CompleteConnection } from './onboarding/complete-connection.handler';
import { ConnectionOverview } from './onboarding/connection-overview';
import { CompanyContextService } from './context/company-context.service';
import { EmployeeDirectory } from './employees/employee-directory';
import { ReadBalances } from './balance/read-balances.handler';
import { ImportBookingHistoryHandler } from './history-suggestions/history-suggestions.handlers';
import { ExecutorOptions } from './execute-proposal/executor.options';
import { ProposalExecutor } from './execute-proposal/proposal-executor';
import { ProviderChecks } from './checks/checks';
import { DailyCheckOptions } from './daily-check/daily-check.options';
import { DailyCheckRunner } from './daily-check/daily-check-runner';

export const APPLICATION_HANDLERS = [
  SubmitProposalHandler,
  GetProposalHandler,
  GetProposalChain,
  ApproveProposalHandler,
  RejectProposalHandler,
  ListReimbursementsHandler,
  MarkReimbursementPaidHandler,
  ListEventsHandler,
  ListProposalsHandler,
  ListPatternsHandler,
  CreatePatternHandler,
  EditPatternHandler,
  RetirePatternHandler,
  GetCompanySettingsHandler,
  UpdateCompanySettingsHandler,
  ListSuggestionsHandler,
  ConfirmSuggestionsHandler,
  ConsoleAccess,
  ReviewQueue,
  DeleteCompanyHandler,
  LatestDailyCheck,
  GetCompanyProfile,
  GetProposalReceipt,
  // Onboarding, the company's context, its employees and balances.
  ProviderConnections,
  StartConnection,
  CompleteConnection,
  ConnectionOverview,
  CompanyContextService,
  EmployeeDirectory,
  ReadBalances,
  ImportBookingHistoryHandler,
  // The executor, the provider checks and the daily check; the app runs their loops.
  ProposalExecutor,
  ProviderChecks,
  DailyCheckRunner,
];

/** What the app configures the use cases with. */
export interface ApplicationModuleOptions extends Partial<ApplicationOptions> {
  /** The executor's batch, lease and retry policy (EXECUTOR_*). */
  readonly executor?: ExecutorOptions;
  /** The daily check's look-back, concurrency, lease and retries (DAILY_CHECK_*). */
  readonly dailyCheck?: DailyCheckOptions;
}

/**
 * Every use case and query, in one place. Their ports come from the adapter libraries' modules
 * the app module chooses (persistence, providers, vault, notifications) and from the app's own
 * adapters (the clock, ids, the daily check's metrics); this module adds only the pure
 * ConfidenceEngine and the options. Global: the feature modules' controllers and loops inject the
 * use cases without re-providing them.
 */
@Module({})
export class ApplicationModule {
  static forRoot(options: ApplicationModuleOptions = {}): DynamicModule {
    const { executor, dailyCheck, ...application } = options;
    return {
      module: ApplicationModule,
      global: true,
      providers: [
        { provide: ApplicationOptions, useValue: new ApplicationOptions(application) },
        { provide: ExecutorOptions, useValue: executor ?? new ExecutorOptions() },
        { provide: DailyCheckOptions, useValue: dailyCheck ?? new DailyCheckOptions() },
        { provide: ConfidenceEngine, useValue: new ConfidenceEngine() },
        ApplicationContext,
        IdempotentExecution,
        PdfCheck,
        ...APPLICATION_HANDLERS,
      ],
      exports: [...APPLICATION_HANDLERS, ApplicationContext, ExecutorOptions, DailyCheckOptions],
    };
  }
}
