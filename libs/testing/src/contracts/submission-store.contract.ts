import type {
  IdempotencyRecord,
  IdempotencyStore,
  ReceiptStore,
  SubmissionKey,
  SubmissionStore,
  SubmissionWrite,
  UnitOfWork,
} from '@app/application';
import { ConcurrencyConflict, type EventStore, type OutboundMessage, type ProposalRepository } from '@app/domain';
import { aProposalHistory } from '../mothers/proposal.mother';
import { ManualClock } from '../time/manual-clock';
import { SequentialIdGenerator } from '../time/sequential-id-generator';
import { companies, type ContractOptions, uniqueId } from './contract-support';

export interface SubmissionStoreUnderTest {
  /** The store used alone, outside any unit of work. */
  readonly submissions: SubmissionStore;
  /** Hands out the key store (`ports.idempotency`), through which the stored key is read back. */
  readonly unitOfWork: UnitOfWork;
  /** Readers of what was stored. */
  readonly events: EventStore;
  readonly proposals: ProposalRepository;
  readonly receipts: ReceiptStore;
  readonly pendingMessages: (companyId: string) => Promise<OutboundMessage[]>;
}

const T0 = Date.parse('2026-11-20T10:00:00.000Z');
const DAY = 24 * 3600_000;

/**
 * The SubmissionStore contract (see the port): every row of a submission is stored, or none; with
 * a key, the key and its response are stored with them; a used key stores nothing and answers what
 * it recorded (replay or conflict), and an expired one is taken over.
 */
export function describeSubmissionStoreContract(
  name: string,
  factory: () => SubmissionStoreUnderTest | Promise<SubmissionStoreUnderTest>,
  options: ContractOptions = {},
): void {
  describe(`SubmissionStore contract: ${name}`, () => {
    let subject: SubmissionStoreUnderTest;
    let company: string;

    beforeEach(async () => {
      subject = await factory();
      [company] = await companies(options, 1);
    });

    afterEach(async () => {
      await options.teardown?.();
    });

    /** An auto-approved proposal (Proposed and Approved), with a receipt and its notice. */
    function aSubmission(): SubmissionWrite {
      const ctx = {
        clock: new ManualClock(new Date(T0)),
        ids: new SequentialIdGenerator(Math.floor(Math.random() * 0xffff_ffff)),
      };
      const { proposal, events } = aProposalHistory('APPROVED', { companyId: company, autoApproved: true, ctx });
      return {
        proposal,
        events,
        receipt: {
          proposalId: proposal.id,
          companyId: company,
          filename: 'receipt.pdf',
          contentType: 'application/pdf',
          sha256: 'c'.repeat(64),
          bytes: new Uint8Array([0x25, 0x50, 0x44, 0x46]),
        },
        messages: [
          { companyId: company, target: 'review', kind: 'proposal_needs_review', payload: { id: proposal.id } },
        ],
      };
    }

    function aKey(overrides: Partial<IdempotencyRecord> = {}): SubmissionKey {
      return {
        record: {
          scope: { companyId: company, actor: 'ola@example.no', key: `key-${uniqueId()}` },
          requestHash: 'a'.repeat(64),
          createdAt: new Date(T0),
          expiresAt: new Date(T0 + DAY),
          ...overrides,
        },
        response: { status: 201, body: { id: 'p-1', nested: { z: 1, a: [2, 1] } } },
      };
    }

    const claim = (record: IdempotencyRecord) =>
      subject.unitOfWork.run((ports) => (ports.idempotency as IdempotencyStore).claim(record));

    async function stored(submission: SubmissionWrite) {
      const { proposal } = submission;
      return {
        proposal: await subject.proposals.findById(company, proposal.id),
        events: (await subject.events.readChain(company, proposal.correlationId)).map((event) => event.id),
        receipt: (await subject.receipts.find(company, proposal.id))?.sha256 ?? null,
        messages: (await subject.pendingMessages(company)).map((message) => message.payload),
      };
    }

    it('stores the events, the proposal, the receipt and the notices', async () => {
      const submission = aSubmission();

      expect(await subject.submissions.store(submission)).toEqual({ outcome: 'stored' });

      expect(await stored(submission)).toEqual({
        proposal: submission.proposal,
        events: submission.events.map((event) => event.id),
        receipt: 'c'.repeat(64),
        messages: [{ id: submission.proposal.id }],
      });
    });

    it('stores the key with its response, which a retry then replays', async () => {
      const key = aKey();

      expect(await subject.submissions.store(aSubmission(), key)).toEqual({ outcome: 'stored' });

      expect(await claim({ ...key.record, createdAt: new Date(T0 + 1000) })).toEqual({
        outcome: 'replay',
        response: key.response,
      });
    });

    it('stores nothing for a used key and answers what it recorded: replay, or conflict for another request', async () => {
      const key = aKey();
      await subject.submissions.store(aSubmission(), key);
      const again = aSubmission();
      const other = aSubmission();
      const retry = { ...key.record, createdAt: new Date(T0 + 1000) };

      expect(
        await subject.submissions.store(again, { record: retry, response: { status: 201, body: { id: 'p-2' } } }),
      ).toEqual({ outcome: 'replay', response: key.response });
      expect(
        await subject.submissions.store(other, {
          record: { ...retry, requestHash: 'b'.repeat(64) },
          response: { status: 201, body: { id: 'p-3' } },
        }),
      ).toEqual({ outcome: 'conflict' });

      for (const submission of [again, other]) {
        expect(await subject.proposals.findById(company, submission.proposal.id)).toBeNull();
        expect(await subject.events.readChain(company, submission.proposal.correlationId)).toEqual([]);
      }
      expect(await subject.pendingMessages(company)).toHaveLength(1);
    });

    it('takes over an expired key: the new submission is stored and the key records its response', async () => {
      const key = aKey();
      await subject.submissions.store(aSubmission(), key);
      const later = aSubmission();
      const record = { ...key.record, createdAt: new Date(T0 + DAY), expiresAt: new Date(T0 + 2 * DAY) };
      const response = { status: 201, body: { id: 'p-later' } };

      expect(await subject.submissions.store(later, { record, response })).toEqual({ outcome: 'stored' });

      expect((await stored(later)).proposal).toEqual(later.proposal);
      expect(await subject.submissions.recorded({ ...record, createdAt: new Date(T0 + DAY + 1000) })).toEqual({
        outcome: 'replay',
        response,
      });
    });

    it('tells what a used key recorded, and nothing for an unused or expired one', async () => {
      const key = aKey();
      expect(await subject.submissions.recorded(key.record)).toBeNull();

      await subject.submissions.store(aSubmission(), key);

      const retry = { ...key.record, createdAt: new Date(T0 + 1000) };
      expect(await subject.submissions.recorded(retry)).toEqual({ outcome: 'replay', response: key.response });
      expect(await subject.submissions.recorded({ ...retry, requestHash: 'b'.repeat(64) })).toEqual({
        outcome: 'conflict',
      });
      expect(await subject.submissions.recorded({ ...retry, createdAt: new Date(T0 + DAY) })).toBeNull();
    });

    it('with an unused key, a row already stored is a ConcurrencyConflict and the key stays unused', async () => {
      const submission = aSubmission();
      await subject.submissions.store(submission);
      const key = aKey();

      await expect(
        subject.submissions.store({ ...aSubmission(), proposal: submission.proposal, receipt: null }, key),
      ).rejects.toBeInstanceOf(ConcurrencyConflict);

      expect(await subject.submissions.recorded(key.record)).toBeNull();
    });

    it('refuses a submission whose proposal is stored already with ConcurrencyConflict, storing none of it', async () => {
      const submission = aSubmission();
      await subject.submissions.store(submission);
      const other = aSubmission();

      await expect(
        subject.submissions.store({ ...other, proposal: submission.proposal, receipt: null }),
      ).rejects.toBeInstanceOf(ConcurrencyConflict);

      expect(await subject.events.readChain(company, other.proposal.correlationId)).toEqual([]);
      expect(await subject.pendingMessages(company)).toHaveLength(1);
    });
  });
}
