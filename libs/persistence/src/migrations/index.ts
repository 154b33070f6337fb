import { CreateCompanies1763773200000 } from './1763773200000-create-companies';
import { CreateEvents1763780000001 } from './1763780000001-create-events';
import { CreateProposals1763780000002 } from './1763780000002-create-proposals';
import { CreatePatterns1763780000003 } from './1763780000003-create-patterns';
import { CreateCompanySettings1763780000004 } from './1763780000004-create-company-settings';
import { CreateNotificationOutbox1763780000005 } from './1763780000005-create-notification-outbox';
import { CreateCompanyKeys1763780000006 } from './1763780000006-create-company-keys';
import { SealEventsAsynchronously1763780000007 } from './1763780000007-seal-events-asynchronously';
import { CreateProviderConnections1763790000001 } from './1763790000001-create-provider-connections';
import { CreateEmployeeMappings1763790000002 } from './1763790000002-create-employee-mappings';

import { CreateIdempotencyKeys1763790000050 } from './1763790000050-create-idempotency-keys';
import { CreateProposalExecutions1763800000001 } from './1763800000001-create-proposal-executions';
import { CreateDailyCheckRuns1763800000002 } from './1763800000002-create-daily-check-runs';
import { PatternCandidatesFunction1763810000001 } from './1763810000001-pattern-candidates-function';
import { DailyCheckClaimOrderIndex1763810000002 } from './1763810000002-daily-check-claim-order-index';
import { ExpectActivePatternsFunction1763820000001 } from './1763820000001-expect-active-patterns-function';
import { PatternSeparationOfDuties1763830000001 } from './1763830000001-pattern-separation-of-duties';
import { RekeyMerchantPatterns1763830000002 } from './1763830000002-rekey-merchant-patterns';
import { DropExpectActivePatternsFunction1763830000003 } from './1763830000003-drop-expect-active-patterns-function';
import { CreateRateLimits1763830000004 } from './1763830000004-create-rate-limits';
import { AddProposalAmountNok1763840000001 } from './1763840000001-add-proposal-amount-nok';
import { KeyEventChain1764153700001 } from './1764153700001-key-event-chain';
import { DuplicateReceipts1764180000001 } from './1764180000001-duplicate-receipts';
import { ReceiptFingerprints1764250000001 } from './1764250000001-receipt-fingerprints';
import { CreateProposalHeads1764190000001 } from './1764190000001-create-proposal-heads';
import { IndexEventsByTimeAndPosition1764190000002 } from './1764190000002-index-events-by-time-and-position';
import { CompanyDeletedAt1764200000001 } from './1764200000001-company-deleted-at';
import { CreateConsoleSessions1764210000001 } from './1764210000001-create-console-sessions';
import { CreateCompanyDeletions1764220000001 } from './1764220000001-create-company-deletions';
import { BookingHistory1764230000001 } from './1764230000001-booking-history';
import { PatternCandidatesExactFirst1764245000001 } from './1764245000001-pattern-candidates-exact-first';
import { DailyCheckRunCounts1764255000001 } from './1764255000001-daily-check-run-counts';
import { ProposalsListIndex1764310000001 } from './1764310000001-proposals-list-index';
import { ProposalReimbursement1764320000001 } from './1764320000001-proposal-reimbursement';
import { PatternLearntLinks1764330000001 } from './1764330000001-pattern-learnt-links';
import { SupplierInvoiceNumberNormalised1764330000002 } from './1764330000002-supplier-invoice-number-normalised';
import { DuplicatePurchaseIndex1764380000001 } from './1764380000001-duplicate-purchase-index';
import { EnqueueOnApproval1764390000001 } from './1764390000001-enqueue-on-approval';
import { ProviderKindsFromRegistry1764260000001 } from './1764260000001-provider-kinds-from-registry';
import { ProposalBookkeeping1764270000001 } from './1764270000001-proposal-bookkeeping';
import { EmployeeDefaultDepartment1764271000001 } from './1764271000001-employee-default-department';
import { EventTypeShape1764280000001 } from './1764280000001-event-type-shape';
import { DropRateLimits1764300000001 } from './1764300000001-drop-rate-limits';
/** Every migration, in order. Listed explicitly so the same list works from ts (jest) and dist. */
export const MIGRATIONS = [
  CreateCompanies1763773200000,
  CreateEvents1763780000001,
  CreateProposals1763780000002,
  CreatePatterns1763780000003,
  CreateCompanySettings1763780000004,
  CreateNotificationOutbox1763780000005,
  CreateCompanyKeys1763780000006,
  SealEventsAsynchronously1763780000007,
  CreateProviderConnections1763790000001,
  CreateEmployeeMappings1763790000002,
  CreateIdempotencyKeys1763790000050,
  CreateProposalExecutions1763800000001,
  CreateDailyCheckRuns1763800000002,
  PatternCandidatesFunction1763810000001,
  DailyCheckClaimOrderIndex1763810000002,
  ExpectActivePatternsFunction1763820000001,
  PatternSeparationOfDuties1763830000001,
  RekeyMerchantPatterns1763830000002,
  DropExpectActivePatternsFunction1763830000003,
  CreateRateLimits1763830000004,
  AddProposalAmountNok1763840000001,
  KeyEventChain1764153700001,
  DuplicateReceipts1764180000001,
  CreateProposalHeads1764190000001,
  IndexEventsByTimeAndPosition1764190000002,
  CompanyDeletedAt1764200000001,
  CreateConsoleSessions1764210000001,
  CreateCompanyDeletions1764220000001,
  BookingHistory1764230000001,
  PatternCandidatesExactFirst1764245000001,
  ReceiptFingerprints1764250000001,
  DailyCheckRunCounts1764255000001,
  ProviderKindsFromRegistry1764260000001,
  ProposalBookkeeping1764270000001,
  EmployeeDefaultDepartment1764271000001,
  EventTypeShape1764280000001,
  DropRateLimits1764300000001,
  ProposalsListIndex1764310000001,
  ProposalReimbursement1764320000001,
  PatternLearntLinks1764330000001,
  SupplierInvoiceNumberNormalised1764330000002,
  DuplicatePurchaseIndex1764380000001,
  EnqueueOnApproval1764390000001,
];
