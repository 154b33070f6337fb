import { DomainContext } from '@app/domain';
import { ManualClock } from '../time/manual-clock';
import { SequentialIdGenerator } from '../time/sequential-id-generator';
import { InMemoryBookedReceipts } from './in-memory-booked-receipts';
import { InMemoryCompanySettingsStore } from './in-memory-company-settings-store';
import { InMemoryCompanyRepository } from './in-memory-company-repository';
import { InMemoryDailyChecks } from './in-memory-daily-checks';
import { InMemoryEventStore } from './in-memory-event-store';
import { InMemoryExecutions } from './in-memory-executions';
import { InMemoryIdempotencyStore } from './in-memory-idempotency-store';
import { InMemoryNotifier } from './in-memory-notifier';
import { InMemoryPatternStore } from './in-memory-pattern-store';
import { InMemoryProposalRepository } from './in-memory-proposal-repository';
import { InMemoryProviderConnectionRepository } from './in-memory-provider-connection-repository';
import { InMemoryReceiptStore } from './in-memory-receipt-store';
import { InMemorySubmissionStore } from './in-memory-submission-store';
import { InMemoryUnitOfWork } from './in-memory-unit-of-work';

/** Every in-memory adapter wired together, with a manual clock and sequential ids: a use case's world. */
export function createInMemoryAdapters(start?: Date | string) {
  const clock = new ManualClock(start);
  const ids = new SequentialIdGenerator();
  const events = new InMemoryEventStore();
  const proposals = new InMemoryProposalRepository();
  const patterns = new InMemoryPatternStore();
  const notifier = new InMemoryNotifier();
  const receipts = new InMemoryReceiptStore();
  const idempotency = new InMemoryIdempotencyStore();
  const executions = new InMemoryExecutions(proposals);
  const bookedReceipts = new InMemoryBookedReceipts();
  const connections = new InMemoryProviderConnectionRepository(clock);
  const companies = new InMemoryCompanyRepository(clock, { events, connections });
  const dailyChecks = new InMemoryDailyChecks(companies, connections);
  const settings = new InMemoryCompanySettingsStore();
  const unitOfWork = new InMemoryUnitOfWork({
    events,
    proposals,
    patterns,
    notifier,
    receipts,
    idempotency,
    executions,
    bookedReceipts,
    dailyChecks,
  });
  const submissions = new InMemorySubmissionStore(unitOfWork, idempotency);
  const ctx: DomainContext = { clock, ids };
  return {
    clock,
    ids,
    ctx,
    events,
    proposals,
    patterns,
    notifier,
    receipts,
    idempotency,
    submissions,
    executions,
    bookedReceipts,
    dailyChecks,
    companies,
    connections,
    settings,
    unitOfWork,
  };
}

export type InMemoryAdapters = ReturnType<typeof createInMemoryAdapters>;
