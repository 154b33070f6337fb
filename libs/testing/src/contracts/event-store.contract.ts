import { ConcurrencyConflict, DomainEvent, EventStore, ProposedEvent, ProposalStatus } from '@app/domain';
import { companies, ContractOptions, uniqueId } from './contract-support';

const T0 = Date.parse('2026-11-20T10:00:00.000Z');

/** A minimal proposal-chain event at `sequence`; `type`/`status` follow the chain's usual order. */
export function aChainEvent(
  company: string,
  correlationId: string,
  sequence: number,
  overrides: Partial<Record<keyof DomainEvent, unknown>> = {},
): DomainEvent {
  const base: ProposedEvent = {
    id: uniqueId(),
    type: 'Proposed',
    status: 'PROPOSED',
    proposalId: correlationId,
    correlationId,
    sequence,
    occurredAt: new Date(T0 + sequence * 1000),
    actor: 'ola@example.no',
    company,
    channel: 'slack',
    provider: 'tripletex',
    api_calls: [],
    confidence: 0.42,
    data: {
      kind: 'expense',
      merchant: 'Spotify AB',
      merchantKey: 'spotify',
      amount: '119.00',
      currency: 'NOK',
      date: '2026-11-20',
      accountCode: '6540',
      vatRate: '25',
      description: null,
      receipt: null,
      thread: null,
      resubmissionOf: null,
      route: 'review_required',
      reasons: ['unknown merchant: no pattern for "spotify"'],
    },
  };
  return { ...base, ...overrides } as DomainEvent;
}

function approved(company: string, correlationId: string, sequence: number, at?: Date): DomainEvent {
  return aChainEvent(company, correlationId, sequence, {
    type: 'Approved',
    status: 'APPROVED',
    ...(at && { occurredAt: at }),
    data: {
      auto: false,
      corrections: { accountCode: '6540' },
      accountCode: '6540',
      vatRate: '25',
      executeAfter: '2026-11-20T10:00:00.000Z',
    },
  });
}

function withStatus(event: DomainEvent, type: DomainEvent['type'], status: ProposalStatus | null): DomainEvent {
  return { ...event, type, status } as DomainEvent;
}

/**
 * The EventStore contract. Call it from a spec with a factory of the adapter under test:
 * `describeEventStoreContract('InMemoryEventStore', () => new InMemoryEventStore())`.
 */
export function describeEventStoreContract(
  name: string,
  factory: () => EventStore | Promise<EventStore>,
  options: ContractOptions = {},
): void {
  describe(`EventStore contract: ${name}`, () => {
    let store: EventStore;
    let company: string;
    let otherCompany: string;

    beforeEach(async () => {
      store = await factory();
      [company, otherCompany] = await companies(options, 2);
    });

    afterEach(async () => {
      await options.teardown?.();
    });

    it('stores events and reads a chain back oldest first, with every field intact', async () => {
      const chain = uniqueId();
      const first = aChainEvent(company, chain, 1, {
        api_calls: [{ method: 'POST', path: '/ledger/voucher', status: 201 }],
      });
      const second = approved(company, chain, 2);
      await store.append([first]);
      await store.append([second]);

      const read = await store.readChain(company, chain);

      expect(read).toEqual([first, second]);
      expect(read[0].occurredAt).toBeInstanceOf(Date);
    });

    it('keeps null provider, null confidence and null proposalId (pattern events)', async () => {
      const chain = uniqueId();
      const patternEvent = aChainEvent(company, chain, 1, {
        type: 'PatternRetired',
        status: null,
        proposalId: null,
        provider: null,
        confidence: null,
        data: {
          pattern: {
            id: chain,
            merchantKey: 'spotify',
            merchantName: 'Spotify AB',
            accountCode: '6540',
            vatRate: '25',
            approvals: 2,
            verified: true,
            amountStats: { count: 2, mean: 11950.5, m2: 0.5, min: 11900, max: 12001 },
          },
        },
      });
      await store.append([patternEvent]);

      expect(await store.readChain(company, chain)).toEqual([patternEvent]);
    });

    it('reads nothing of another company’s chain', async () => {
      const chain = uniqueId();
      await store.append([aChainEvent(company, chain, 1)]);

      expect(await store.readChain(otherCompany, chain)).toEqual([]);
      expect((await store.list(otherCompany, { correlationId: chain, limit: 50 })).items).toEqual([]);
    });

    it('refuses a second event at a taken (correlationId, sequence) with ConcurrencyConflict and keeps the first', async () => {
      const chain = uniqueId();
      const first = aChainEvent(company, chain, 1);
      await store.append([first]);

      await expect(store.append([aChainEvent(company, chain, 1, { actor: 'eve@example.no' })])).rejects.toBeInstanceOf(
        ConcurrencyConflict,
      );
      expect(await store.readChain(company, chain)).toEqual([first]);
    });

    it('lets exactly one of two concurrent appends at the same position win', async () => {
      const chain = uniqueId();
      await store.append([aChainEvent(company, chain, 1)]);
      const contenders = [
        approved(company, chain, 2),
        withStatus(aChainEvent(company, chain, 2), 'Rejected', 'REJECTED'),
      ];

      const results = await Promise.allSettled(contenders.map((event) => store.append([event])));

      expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
      const failure = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
      expect(failure?.reason).toBeInstanceOf(ConcurrencyConflict);
      expect(await store.readChain(company, chain)).toHaveLength(2);
    });

    it('appends a batch atomically: one taken position stores none of it', async () => {
      const chain = uniqueId();
      const otherChain = uniqueId();
      await store.append([aChainEvent(company, chain, 1)]);

      await expect(
        store.append([aChainEvent(company, otherChain, 1), aChainEvent(company, chain, 1)]),
      ).rejects.toBeInstanceOf(ConcurrencyConflict);
      expect(await store.readChain(company, otherChain)).toEqual([]);
    });

    it('stores a batch of one chain in one call (Proposed + Approved)', async () => {
      const chain = uniqueId();
      const batch = [aChainEvent(company, chain, 1), approved(company, chain, 2)];
      await store.append(batch);

      expect(await store.readChain(company, chain)).toEqual(batch);
    });

    it('lists one chain by correlationId, oldest first', async () => {
      const chain = uniqueId();
      await store.append([aChainEvent(company, chain, 1), approved(company, chain, 2)]);
      await store.append([aChainEvent(company, uniqueId(), 1)]);

      const page = await store.list(company, { correlationId: chain, limit: 50 });

      expect(page.items.map((e) => e.sequence)).toEqual([1, 2]);
      expect(page.nextCursor).toBeNull();
    });

    it('filters by type', async () => {
      const chain = uniqueId();
      await store.append([aChainEvent(company, chain, 1), approved(company, chain, 2)]);

      const page = await store.list(company, { type: 'Approved', limit: 50 });

      expect(page.items.map((e) => e.type)).toEqual(['Approved']);
    });

    it('filters by status: only the events of proposals currently in that status', async () => {
      const pending = uniqueId();
      const approvedChain = uniqueId();
      await store.append([aChainEvent(company, pending, 1)]);
      await store.append([aChainEvent(company, approvedChain, 1), approved(company, approvedChain, 2)]);

      const proposed = await store.list(company, { status: 'PROPOSED', limit: 50 });
      const approvedPage = await store.list(company, { status: 'APPROVED', limit: 50 });

      expect(proposed.items.map((e) => e.correlationId)).toEqual([pending]);
      expect(approvedPage.items.map((e) => [e.correlationId, e.type])).toEqual([[approvedChain, 'Approved']]);
    });

    it('filters by time: from inclusive, to exclusive', async () => {
      const chain = uniqueId();
      const at = (seconds: number) => new Date(T0 + seconds * 1000);
      await store.append([
        aChainEvent(company, chain, 1, { occurredAt: at(10) }),
        approved(company, chain, 2, at(20)),
        withStatus(aChainEvent(company, chain, 3, { occurredAt: at(30) }), 'Rejected', 'REJECTED'),
      ]);

      const page = await store.list(company, { from: at(20), to: at(30), limit: 50 });

      expect(page.items.map((e) => e.sequence)).toEqual([2]);
    });

    it('pages through every matching event exactly once with limit and cursor', async () => {
      const chain = uniqueId();
      const events = Array.from({ length: 7 }, (_, i) => aChainEvent(company, chain, i + 1));
      await store.append(events);

      const seen: number[] = [];
      let cursor: string | null = null;
      let pages = 0;
      do {
        const page = await store.list(company, { correlationId: chain, limit: 3, cursor });
        seen.push(...page.items.map((e) => e.sequence));
        cursor = page.nextCursor;
        pages++;
      } while (cursor !== null && pages < 10);

      expect(seen).toEqual([1, 2, 3, 4, 5, 6, 7]);
      expect(pages).toBe(3);
    });
  });
}
