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
import { ApplicationContext } from './shared/domain-context.provider';
import { ConsoleAccess } from './console/console-access';
import { DeleteCompanyHandler } from './delete-company/delete-company.handler';
import { PdfCheck } from './receipts/pdf-check';
import { ReviewQueue } from './review-queue/review-queue';
import { SubmitProposalHandler } from './submit-proposal/submit-proposal.handler';

export const APPLICATION_HANDLERS = [
  SubmitProposalHandler,
  GetProposalHandler,
  GetProposalChain,
  ApproveProposalHandler,
  RejectProposalHandler,
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
];

/**
 * The use cases. Their ports (UnitOfWork, EventStore, ProposalRepository, PatternStore,
 * CompanySettingsStore, ReceiptStore, IdempotencyStore, SubmissionStore, CompanyRepository, TokenVault, Clock,
 * IdGenerator) come from the modules the app module chooses (persistence, vault, platform); this
 * module adds only the pure ConfidenceEngine.
 */
@Module({})
export class ApplicationModule {
  static forRoot(options: Partial<ApplicationOptions> = {}): DynamicModule {
    return {
      module: ApplicationModule,
      providers: [
        { provide: ApplicationOptions, useValue: new ApplicationOptions(options) },
        { provide: ConfidenceEngine, useValue: new ConfidenceEngine() },
        ApplicationContext,
        IdempotentExecution,
        PdfCheck,
        ...APPLICATION_HANDLERS,
      ],
      exports: APPLICATION_HANDLERS,
    };
  }
}
