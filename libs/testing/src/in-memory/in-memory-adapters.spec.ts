import { randomUUID } from 'node:crypto';
import { WebhookSecret } from '@app/notifications';
import {
  describeAuthorizationRequestStoreContract,
  describeBookedReceiptsContract,
  describeCompanyChannelDirectoryContract,
  describeCompanyContextStoreContract,
  describeCompanyRepositoryContract,
  describeBookingHistoryStoreContract,
  describeCompanySettingsStoreContract,
  describeConsoleSessionStoreContract,
  describeDailyCheckRunsContract,
  describeEmployeeMappingRepositoryContract,
  describeEventStoreContract,
  describeExecutionQueueContract,
  describeIdempotencyStoreContract,
  describeIdGeneratorContract,
  describeNotifierContract,
  describePatternStoreContract,
  describeProposalRepositoryContract,
  describeProviderConnectionRepositoryContract,
  describeProviderGrantExchangeContract,
  describeReceiptStoreContract,
  describeSharedRequestSlotsContract,
  describeSubmissionReadsContract,
  describeSubmissionStoreContract,
  describeUnitOfWorkContract,
} from '../contracts';
import { FakeProviderGrantExchange } from '../fakes/fake-provider-grant-exchange';
import { ManualClock } from '../time/manual-clock';
import { SequentialIdGenerator } from '../time/sequential-id-generator';
import { InMemoryAuthorizationRequestStore } from './in-memory-authorization-request-store';
import { InMemoryBookedReceipts } from './in-memory-booked-receipts';
import { InMemoryBookingHistoryStore } from './in-memory-booking-history-store';
import { InMemoryCompanyChannelDirectory } from './in-memory-company-channel-directory';
import { InMemoryCompanyContextStore } from './in-memory-company-context-store';
import { InMemoryCompanySettingsStore } from './in-memory-company-settings-store';
import { InMemoryConsoleSessionStore } from './in-memory-console-session-store';
import { createInMemoryAdapters } from './in-memory-adapters';
import { InMemoryEmployeeMappingRepository } from './in-memory-employee-mapping-repository';
import { InMemoryEventStore } from './in-memory-event-store';
import { InMemoryNotifier } from './in-memory-notifier';
import { InMemorySharedRequestSlots } from './in-memory-shared-request-slots';
import { InMemoryPatternStore } from './in-memory-pattern-store';
import { InMemoryProposalRepository } from './in-memory-proposal-repository';
import { InMemoryProviderConnectionRepository } from './in-memory-provider-connection-repository';
import { InMemorySubmissionReads } from './in-memory-submission-reads';

describeEventStoreContract('InMemoryEventStore', () => new InMemoryEventStore());
describeProposalRepositoryContract('InMemoryProposalRepository', () => new InMemoryProposalRepository());
describePatternStoreContract('InMemoryPatternStore', () => new InMemoryPatternStore());
// One in-memory store is what every instance shares: both participants are the same object.
describeSharedRequestSlotsContract(
  'InMemorySharedRequestSlots',
  () => {
    const slots = new InMemorySharedRequestSlots();
    return { a: slots, b: slots };
  },
  {
    withWait: (waitMs) => {
      const slots = new InMemorySharedRequestSlots(waitMs);
      return { a: slots, b: slots };
    },
  },
);
describeNotifierContract('InMemoryNotifier', () => {
  const notifier = new InMemoryNotifier();
  return { notifier, pending: async (companyId) => notifier.messages(companyId) };
});
describeCompanySettingsStoreContract('InMemoryCompanySettingsStore', () => new InMemoryCompanySettingsStore());
describeBookedReceiptsContract('InMemoryBookedReceipts', () => new InMemoryBookedReceipts());
describeBookingHistoryStoreContract('InMemoryBookingHistoryStore', () => new InMemoryBookingHistoryStore());
describeSubmissionReadsContract('InMemorySubmissionReads', () => {
  const [patterns, proposals, history] = [
    new InMemoryPatternStore(),
    new InMemoryProposalRepository(),
    new InMemoryBookingHistoryStore(),
  ];
  return { reads: new InMemorySubmissionReads(patterns, proposals, history), patterns, proposals, history };
});
describeConsoleSessionStoreContract('InMemoryConsoleSessionStore', () => new InMemoryConsoleSessionStore());
describeUnitOfWorkContract('InMemoryUnitOfWork', () => {
  const adapters = createInMemoryAdapters();
  return {
    unitOfWork: adapters.unitOfWork,
    events: adapters.events,
    proposals: adapters.proposals,
    patterns: adapters.patterns,
    pendingMessages: async (companyId) => adapters.notifier.messages(companyId),
  };
});
describeReceiptStoreContract('InMemoryReceiptStore', () => {
  const adapters = createInMemoryAdapters();
  return { unitOfWork: adapters.unitOfWork, receipts: adapters.receipts };
});
describeSubmissionStoreContract('InMemorySubmissionStore', () => {
  const adapters = createInMemoryAdapters();
  return {
    submissions: adapters.submissions,
    unitOfWork: adapters.unitOfWork,
    events: adapters.events,
    proposals: adapters.proposals,
    receipts: adapters.receipts,
    pendingMessages: async (companyId: string) => adapters.notifier.messages(companyId),
  };
});
describeIdempotencyStoreContract('InMemoryIdempotencyStore', () => ({
  unitOfWork: createInMemoryAdapters().unitOfWork,
}));

describeExecutionQueueContract('InMemoryExecutions', () => {
  const adapters = createInMemoryAdapters();
  return { queue: adapters.executions.queue, proposals: adapters.proposals, unitOfWork: adapters.unitOfWork };
});

describeDailyCheckRunsContract('InMemoryDailyChecks', () => {
  const adapters = createInMemoryAdapters();
  return {
    runs: adapters.dailyChecks.runs,
    unitOfWork: adapters.unitOfWork,
    companies: adapters.companies,
    connections: adapters.connections,
  };
});

describeCompanyRepositoryContract('InMemoryCompanyRepository', () => {
  const adapters = createInMemoryAdapters();
  return { companies: adapters.companies, connections: adapters.connections, events: adapters.events };
});
describeProviderConnectionRepositoryContract(
  'InMemoryProviderConnectionRepository',
  () => new InMemoryProviderConnectionRepository(new ManualClock()),
);
describeCompanyContextStoreContract('InMemoryCompanyContextStore', () => new InMemoryCompanyContextStore());
describeEmployeeMappingRepositoryContract(
  'InMemoryEmployeeMappingRepository',
  () => new InMemoryEmployeeMappingRepository(),
);
describeProviderGrantExchangeContract('FakeProviderGrantExchange', () => {
  const clock = new ManualClock();
  const exchange = new FakeProviderGrantExchange(clock);
  const fikenCompanies = [
    { id: 'demo-fiken-as', name: 'Demo Fiken AS' },
    { id: 'fjellbekk-as', name: 'Fjellbekk AS' },
  ];
  return {
    exchange,
    now: () => clock.now(),
    consentFiken: async (index, redirectUri, state) => ({
      code: exchange.consentFiken(fikenCompanies[index], redirectUri, state),
      company: fikenCompanies[index],
    }),
    tripletexEmployee: (index) => {
      const employeeToken = `employee-token-${index}`;
      exchange.addTripletexEmployee(employeeToken, String(1001 + index));
      return { employeeToken, company: { id: String(1001 + index), name: null } };
    },
    outage: (provider) => exchange.outage(provider),
    restore: (provider) => exchange.restore(provider),
  };
});
describeCompanyChannelDirectoryContract('InMemoryCompanyChannelDirectory', () => {
  const directory = new InMemoryCompanyChannelDirectory();
  return {
    directory,
    addCompany: async (companyId, targets) => {
      directory.set(companyId, { ...targets, webhookSecret: WebhookSecret.from(randomUUID()) });
    },
    changeTargets: async (companyId, targets) => {
      directory.set(companyId, { ...(await directory.channelsOf(companyId)), ...targets });
    },
    deleteCompany: async (companyId) => directory.remove(companyId),
  };
});
describeIdGeneratorContract('SequentialIdGenerator', () => ({
  generator: new SequentialIdGenerator(),
  setClock: () => undefined,
}));
describeAuthorizationRequestStoreContract(
  'InMemoryAuthorizationRequestStore',
  () => new InMemoryAuthorizationRequestStore(),
);

describe('InMemoryUnitOfWork', () => {
  it('runs units one after another, so a rolled-back unit never undoes a concurrent one', async () => {
    const adapters = createInMemoryAdapters();
    const order: string[] = [];
    const slow = adapters.unitOfWork.run(async (ports) => {
      order.push('slow:start');
      await new Promise((resolve) => setTimeout(resolve, 5));
      await ports.notifier.notify([
        { companyId: 'acme', target: 'review', kind: 'proposal_needs_review', payload: {} },
      ]);
      order.push('slow:end');
      throw new Error('rolled back');
    });
    const fast = adapters.unitOfWork.run(async (ports) => {
      order.push('fast');
      await ports.notifier.notify([{ companyId: 'acme', target: 'invoices', kind: 'daily_check', payload: {} }]);
    });

    await expect(slow).rejects.toThrow('rolled back');
    await fast;

    expect(order).toEqual(['slow:start', 'slow:end', 'fast']);
    expect(adapters.notifier.messages().map((m) => m.kind)).toEqual(['daily_check']);
  });
});
