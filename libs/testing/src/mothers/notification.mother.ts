import type {
  NewOutboxMessage,
  DailyCheckPayload,
  Notification,
  NotificationTarget,
  ProposalAutoApprovedPayload,
  ProposalNeedsReviewPayload,
  ProposalRejectedPayload,
} from '@app/notifications';

/** Object Mothers for notifications: valid defaults, override what the test is about. */
export const aNeedsReviewPayload = (over: Partial<ProposalNeedsReviewPayload> = {}): ProposalNeedsReviewPayload => ({
  proposalId: '0193a0c0-0000-7000-8000-000000000001',
  correlationId: '0193a0c0-0000-7000-8000-0000000000c1',
  merchant: 'Kontorrekvisita AS',
  amount: '1249.50',
  currency: 'NOK',
  date: '2026-11-20',
  accountCode: '6800',
  vatRate: '25',
  confidence: 0,
  route: 'review_required',
  reasons: ['unknown merchant: kontorrekvisita'],
  submittedBy: 'ola@example.no',
  ...over,
});

export const anAutoApprovedPayload = (
  over: Partial<ProposalAutoApprovedPayload> = {},
): ProposalAutoApprovedPayload => ({
  proposalId: '0193a0c0-0000-7000-8000-000000000002',
  correlationId: '0193a0c0-0000-7000-8000-0000000000c2',
  merchant: 'Spotify AB',
  amount: '119.00',
  currency: 'NOK',
  date: '2026-11-20',
  accountCode: '6540',
  vatRate: '25',
  confidence: 0.96,
  reasons: ['exact merchant match: spotify', 'account and VAT agree with 14 approvals'],
  executeAfter: '2026-11-20T10:15:00.000Z',
  actor: 'ola@example.no',
  thread: { channel: 'slack', threadId: 'C01/1700000000.000100' },
  ...over,
});

export const aRejectedPayload = (over: Partial<ProposalRejectedPayload> = {}): ProposalRejectedPayload => ({
  proposalId: '0193a0c0-0000-7000-8000-000000000003',
  correlationId: '0193a0c0-0000-7000-8000-0000000000c3',
  merchant: 'Spotify AB',
  amount: '119.00',
  currency: 'NOK',
  reason: 'wrong amount',
  rejectedBy: 'kari@example.no',
  actor: 'ola@example.no',
  thread: { channel: 'slack', threadId: 'C01/1700000000.000100' },
  ...over,
});

export const aDailyCheckPayload = (over: Partial<DailyCheckPayload> = {}): DailyCheckPayload => ({
  date: '2026-11-20',
  provider: 'tripletex',
  missingReceiptsFrom: '2026-10-21',
  missingReceipts: [{ id: 'v-101', date: '2026-11-02', description: 'Taxi Oslo', amount: '389.00', currency: 'NOK' }],
  overdueInvoices: [
    {
      id: 'i-7',
      invoiceNumber: '10007',
      customer: 'Nordlys AS',
      dueDate: '2026-11-01',
      outstanding: '12500.00',
      currency: 'NOK',
    },
  ],
  ...over,
});

export const aNotification = (over: Partial<Notification> = {}): Notification =>
  ({
    companyId: 'acme',
    target: 'review' as NotificationTarget,
    kind: 'proposal_needs_review',
    payload: aNeedsReviewPayload(),
    ...over,
  }) as Notification;

let sequence = 0;

/** A new outbox row; ids are unique within the process unless given. */
export const aNewOutboxMessage = (over: Partial<NewOutboxMessage> = {}): NewOutboxMessage => {
  sequence += 1;
  return {
    ...aNotification(),
    id: `msg-${String(sequence).padStart(6, '0')}`,
    createdAt: new Date('2026-11-20T07:00:00.000Z'),
    ...over,
  } as NewOutboxMessage;
};
