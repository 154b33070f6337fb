import { createHash } from 'node:crypto';
import type { IdempotencyRecord, ReceiptStore, TransactionalPorts, UnitOfWork } from '@app/application';
import {
  ConcurrencyConflict,
  type EventStore,
  type OutboundMessage,
  type PatternStore,
  type Proposal,
  type ProposalRepository,
} from '@app/domain';
import { aPattern } from '../mothers/pattern.mother';
import { aProposal, aProposalHistory } from '../mothers/proposal.mother';
import { companies, ContractOptions, uniqueId } from './contract-support';

export interface UnitOfWorkUnderTest {
  readonly unitOfWork: UnitOfWork;
  /** Readers outside any unit of work, to see what was committed. */
  readonly events: EventStore;
  readonly proposals: ProposalRepository;
  readonly patterns: PatternStore;
  readonly receipts: ReceiptStore;
  readonly pendingMessages: (companyId: string) => Promise<OutboundMessage[]>;
}

const T0 = Date.parse('2026-11-20T10:00:00.000Z');
const DAY = 24 * 3600_000;

/**
 * The UnitOfWork contract: all of a unit's writes commit together, or none do; and the contract of
 * the stores only a unit of work hands out (receipts, idempotency keys).
 */
export function describeUnitOfWorkContract(
  name: string,
  factory: () => UnitOfWorkUnderTest | Promise<UnitOfWorkUnderTest>,
  options: ContractOptions = {},
): void {
  describe(`UnitOfWork contract: ${name}`, () => {
    let subject: UnitOfWorkUnderTest;
    let company: string;
    let otherCompany: string;

    beforeEach(async () => {
      subject = await factory();
      [company, otherCompany] = await companies(options, 2);
    });

    afterEach(async () => {
      await options.teardown?.();
    });

    /** Writes one of everything through the unit's ports. */
    function writeEverything() {
      const id = uniqueId();
      const { proposal: template, events: templateEvents } = aProposalHistory('PROPOSED', { companyId: company });
      const proposal = { ...template, id, correlationId: id };
      const events = templateEvents.map((event) => ({ ...event, id: uniqueId(), proposalId: id, correlationId: id }));
      const pattern = aPattern({ id: uniqueId(), companyId: company });
      const message: OutboundMessage = {
        companyId: company,
        target: 'review',
        kind: 'proposal_needs_review',
        payload: { proposalId: id },
      };
      return {
        proposal,
        pattern,
        write: async (ports: TransactionalPorts) => {
          await ports.events.append(events);
          await ports.proposals.insert(proposal);
          await ports.patterns.save(pattern, null);
          await ports.notifier.notify([message]);
        },
      };
    }

    it('commits every write of a unit that succeeds, and returns its result', async () => {
      const { proposal, pattern, write } = writeEverything();

      const result = await subject.unitOfWork.run(async (ports) => {
        await write(ports);
        return 'done';
      });

      expect(result).toBe('done');
      expect(await subject.events.readChain(company, proposal.correlationId)).toHaveLength(1);
      expect(await subject.proposals.findById(company, proposal.id)).not.toBeNull();
      expect(await subject.patterns.findById(company, pattern.id)).not.toBeNull();
      expect(await subject.pendingMessages(company)).toHaveLength(1);
    });

    it('commits none of the writes of a unit that throws, and rethrows', async () => {
      const { proposal, pattern, write } = writeEverything();
      const failure = new Error('boom');

      await expect(
        subject.unitOfWork.run(async (ports) => {
          await write(ports);
          throw failure;
        }),
      ).rejects.toBe(failure);

      expect(await subject.events.readChain(company, proposal.correlationId)).toEqual([]);
      expect(await subject.proposals.findById(company, proposal.id)).toBeNull();
      expect(await subject.patterns.findById(company, pattern.id)).toBeNull();
      expect(await subject.pendingMessages(company)).toEqual([]);
    });

    function aStoredProposal(): Proposal {
      const id = uniqueId();
      return { ...aProposal('PROPOSED', { companyId: company }), id, correlationId: id };
    }

    function aReceiptOf(proposal: Proposal) {
      const bytes = new Uint8Array([0x25, 0x50, 0x44, 0x46, 0x2d, 0x00, 0xff, 0x10]);
      return {
        proposalId: proposal.id,
        companyId: proposal.companyId,
        filename: 'r.pdf',
        contentType: 'application/pdf',
        sha256: createHash('sha256').update(bytes).digest('hex'),
        bytes,
      };
    }

    function aKey(overrides: Partial<IdempotencyRecord> = {}): IdempotencyRecord {
      return {
        scope: { companyId: company, actor: 'ola@example.no', key: `key-${uniqueId()}` },
        requestHash: 'a'.repeat(64),
        createdAt: new Date(T0),
        expiresAt: new Date(T0 + DAY),
        ...overrides,
      };
    }

    const use =
      (record: IdempotencyRecord, body: unknown = { id: 'p-1' }) =>
      (ports: TransactionalPorts) =>
        ports.idempotency.claim(record).then(async (claim) => {
          if (claim.outcome === 'claimed') await ports.idempotency.complete(record, { status: 201, body });
          return claim;
        });

    describe('receipts', () => {
      it('commit with their proposal and read back byte for byte, in their company only', async () => {
        const proposal = aStoredProposal();
        const receipt = aReceiptOf(proposal);

        await subject.unitOfWork.run(async (ports) => {
          await ports.proposals.insert(proposal);
          await ports.receipts.save(receipt);
        });

        expect(await subject.receipts.find(company, proposal.id)).toEqual(receipt);
        expect(await subject.receipts.find(otherCompany, proposal.id)).toBeNull();
      });

      it('are not stored when the unit fails', async () => {
        const proposal = aStoredProposal();

        await expect(
          subject.unitOfWork.run(async (ports) => {
            await ports.proposals.insert(proposal);
            await ports.receipts.save(aReceiptOf(proposal));
            throw new Error('boom');
          }),
        ).rejects.toThrow('boom');

        expect(await subject.receipts.find(company, proposal.id)).toBeNull();
      });

      it('refuse a second receipt for one proposal with ConcurrencyConflict', async () => {
        const proposal = aStoredProposal();
        await subject.unitOfWork.run(async (ports) => {
          await ports.proposals.insert(proposal);
          await ports.receipts.save(aReceiptOf(proposal));
        });

        await expect(
          subject.unitOfWork.run((ports) => ports.receipts.save(aReceiptOf(proposal))),
        ).rejects.toBeInstanceOf(ConcurrencyConflict);
      });
    });

    describe('idempotency keys', () => {
      it('are claimed once; the same request then replays the recorded response exactly', async () => {
        const record = aKey();
        const body = { id: 'p-1', nested: { z: 1, a: [2, 1] }, amount: '119.00' };

        expect(await subject.unitOfWork.run(use(record, body))).toEqual({ outcome: 'claimed' });
        const replay = await subject.unitOfWork.run(use({ ...record, createdAt: new Date(T0 + 1000) }));

        expect(replay).toEqual({ outcome: 'replay', response: { status: 201, body } });
        expect(JSON.stringify(replay.outcome === 'replay' && replay.response.body)).toBe(JSON.stringify(body));
      });

      it('conflict with a different request under the same key', async () => {
        const record = aKey();
        await subject.unitOfWork.run(use(record));

        expect(await subject.unitOfWork.run(use({ ...record, requestHash: 'b'.repeat(64) }))).toEqual({
          outcome: 'conflict',
        });
      });

      it('are scoped to company and actor', async () => {
        const record = aKey();
        await subject.unitOfWork.run(use(record));

        expect(
          await subject.unitOfWork.run(use({ ...record, scope: { ...record.scope, actor: 'kari@example.no' } })),
        ).toEqual({
          outcome: 'claimed',
        });
        expect(
          await subject.unitOfWork.run(use({ ...record, scope: { ...record.scope, companyId: otherCompany } })),
        ).toEqual({
          outcome: 'claimed',
        });
      });

      it('count as unused once expired', async () => {
        const record = aKey();
        await subject.unitOfWork.run(use(record));

        const later = {
          ...record,
          requestHash: 'b'.repeat(64),
          createdAt: new Date(T0 + DAY),
          expiresAt: new Date(T0 + 2 * DAY),
        };
        expect(await subject.unitOfWork.run(use(later))).toEqual({ outcome: 'claimed' });
        expect(await subject.unitOfWork.run(use({ ...later, createdAt: new Date(T0 + DAY + 1) }))).toMatchObject({
          outcome: 'replay',
        });
      });

      it('are purged once expired, not before', async () => {
        const record = aKey();
        await subject.unitOfWork.run(use(record));
        const purge = (at: number) =>
          subject.unitOfWork.run((ports) => ports.idempotency.purgeExpired(new Date(at), 10_000));

        await purge(T0 + DAY - 1);
        expect(await subject.unitOfWork.run(use({ ...record, createdAt: new Date(T0 + DAY - 1) }))).toMatchObject({
          outcome: 'replay',
        });
        expect(await purge(T0 + DAY)).toBeGreaterThanOrEqual(1);
        expect(await subject.unitOfWork.run((ports) => ports.idempotency.purgeExpired(new Date(T0 + DAY), 0))).toBe(0);
      });

      it('stay unused when the unit that claimed them fails', async () => {
        const record = aKey();
        await expect(
          subject.unitOfWork.run(async (ports) => {
            await use(record)(ports);
            throw new Error('boom');
          }),
        ).rejects.toThrow('boom');

        expect(await subject.unitOfWork.run(use(record))).toEqual({ outcome: 'claimed' });
      });

      /**
       * A unit that claims `record` and then holds its transaction open until `release` is called,
       * ending as `outcome` says; `claimed` resolves once the key is taken.
       */
      function aHoldingUnit(record: IdempotencyRecord, outcome: 'commit' | 'fail') {
        let release: () => void = () => undefined;
        let claimed: () => void = () => undefined;
        const held = new Promise<void>((resolve) => (release = resolve));
        const taken = new Promise<void>((resolve) => (claimed = resolve));
        const done = subject.unitOfWork.run(async (ports) => {
          const claim = await ports.idempotency.claim(record);
          claimed();
          await held;
          if (outcome === 'fail') throw new Error('the first unit failed');
          await ports.idempotency.complete(record, { status: 201, body: { winner: 'first' } });
          return claim;
        });
        return { done, taken, release };
      }

      /** Whether `promise` is still pending after a moment: a unit waiting on a held key stays so. */
      async function stillPending(promise: Promise<unknown>): Promise<boolean> {
        let settled = false;
        void promise.then(
          () => (settled = true),
          () => (settled = true),
        );
        await new Promise((resolve) => setTimeout(resolve, 100));
        return !settled;
      }

      it('make a concurrent unit with the same key wait for the first, then replay its response', async () => {
        const record = aKey();
        const first = aHoldingUnit(record, 'commit');
        await first.taken;

        const second = subject.unitOfWork.run(use(record, { winner: 'second' }));

        expect(await stillPending(second)).toBe(true);
        first.release();
        expect(await first.done).toEqual({ outcome: 'claimed' });
        expect(await second).toEqual({ outcome: 'replay', response: { status: 201, body: { winner: 'first' } } });
      });

      it('make a concurrent unit with the same key and another request wait, then conflict', async () => {
        const record = aKey();
        const first = aHoldingUnit(record, 'commit');
        await first.taken;

        const second = subject.unitOfWork.run(use({ ...record, requestHash: 'b'.repeat(64) }));

        expect(await stillPending(second)).toBe(true);
        first.release();
        await first.done;
        expect(await second).toEqual({ outcome: 'conflict' });
      });

      it('let the waiting unit claim the key itself when the first unit fails', async () => {
        const record = aKey();
        const first = aHoldingUnit(record, 'fail');
        await first.taken;

        const second = subject.unitOfWork.run(use(record, { winner: 'second' }));

        expect(await stillPending(second)).toBe(true);
        first.release();
        await expect(first.done).rejects.toThrow('the first unit failed');
        expect(await second).toEqual({ outcome: 'claimed' });
        expect(await subject.unitOfWork.run(use(record))).toEqual({
          outcome: 'replay',
          response: { status: 201, body: { winner: 'second' } },
        });
      });
    });
  });
}
