// Public surface of @app/application: the use cases, their ports and their in-memory adapters.
export * from './application.options';
export * from './application.module';
export * from './shared/caller';
export * from './shared/unit-of-work.port';
export * from './shared/proposal-view';
export * from './shared/proposal-postings';
export * from './shared/domain-context.provider';

export * from './receipts/receipt-store.port';
export * from './receipts/receipt-upload';
export * from './receipts/image-header';
export * from './receipts/pdf-check';
export * from './receipts/get-proposal-receipt.query';

export * from './idempotency/idempotency-store.port';
export * from './idempotency/idempotency-key';
export * from './idempotency/request-fingerprint';
export * from './idempotency/idempotent-execution';

export * from './submit-proposal/submit-proposal.command';
export * from './submit-proposal/submission-store.port';
export * from './submit-proposal/submission-reads.port';
export * from './submit-proposal/submit-proposal.handler';
export * from './get-proposal/get-proposal.handler';
export * from './list-proposals/list-proposals.handler';
export * from './proposal-chain/proposal-chain.query';
export * from './approve-proposal/approve-proposal.handler';
export * from './reject-proposal/reject-proposal.handler';
export * from './reimbursements/list-reimbursements.handler';
export * from './reimbursements/mark-reimbursement-paid.handler';
export * from './list-events/list-events.handler';
export * from './manage-patterns/manage-patterns.handlers';
export * from './company-config/company-config.handlers';
export * from './company-config/webhook-target-policy';
export * from './delete-company/delete-company.handler';

export * from './onboarding/provider-endpoints';
export * from './onboarding/authorization-state';
export * from './onboarding/provider-connections';
export * from './onboarding/start-connection.handler';
export * from './onboarding/complete-connection.handler';
export * from './onboarding/connection-overview';
export * from './context/company-context.service';
export * from './employees/employee-directory';
export * from './balance/read-balances.handler';

export * from './execute-proposal/booked-receipts.port';
export * from './execute-proposal/execution-ledger.port';
export * from './execute-proposal/executor.options';
export * from './execute-proposal/proposal-executor';
export * from './checks/checks';
export * from './daily-check/daily-check-runs.port';
export * from './daily-check/daily-check.options';
export * from './daily-check/daily-check-runner';
export type { DailyCheck, DailyCheckContext, DailyCheckRendering, DailyCheckResult } from './daily-check/daily-check';
export * from './daily-check/daily-checks';
export * from './daily-check/latest-daily-check.query';
export * from './company-profile/company-profile.query';
export * from './history-suggestions/history-suggestions.handlers';
export * from './console/console-access';
export * from './review-queue/review-queue';
