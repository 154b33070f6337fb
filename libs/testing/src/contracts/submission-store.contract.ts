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
  /** Hands out the store that joins the unit (`ports.submissions`) and the key store (`ports.idempotency`). */
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
 * a key, the key and its response are stored with them, and a key that has a row already — used,
 * or expired and not yet purged — stores nothing and answers false.
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

      expect(await subject.submissions.store(submission)).toBe(true);

      expect(await stored(submission)).toEqual({
        proposal: submission.proposal,
        events: submission.events.map((event) => event.id),
        receipt: 'c'.repeat(64),
        messages: [{ id: submission.proposal.id }],
      });
    });

    it('stores the key with its response, which a retry then replays', async () => {
      const key = aKey();

      expect(await subject.submissions.store(aSubmission(), key)).toBe(true);

      expect(await claim({ ...key.record, createdAt: new Date(T0 + 1000) })).toEqual({
        outcome: 'replay',
        response: key.response,
      });
    });

    it('stores nothing and answers false for a key in use, expired or not', async () => {
      const key = aKey();
      await subject.submissions.store(aSubmission(), key);
      const again = aSubmission();
      const expired = aSubmission();

      expect(await subject.submissions.store(again, { ...key, response: { status: 201, body: { id: 'p-2' } } })).toBe(
        false,
      );
      const later = { ...key.record, createdAt: new Date(T0 + DAY), expiresAt: new Date(T0 + 2 * DAY) };
      expect(await subject.submissions.store(expired, { ...key, record: later })).toBe(false);

      for (const submission of [again, expired]) {
        expect(await subject.proposals.findById(company, submission.proposal.id)).toBeNull();
        expect(await subject.events.readChain(company, submission.proposal.correlationId)).toEqual([]);
      }
      expect(await subject.pendingMessages(company)).toHaveLength(1);
      expect(await claim({ ...key.record, createdAt: new Date(T0 + 1000) })).toMatchObject({
        outcome: 'replay',
        response: key.response,
      });
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

    it('joins the unit of work it is handed out by: nothing is stored when the unit fails', async () => {
      const submission = aSubmission();

      await expect(
        subject.unitOfWork.run(async (ports) => {
          await ports.submissions.store(submission);
          throw new Error('the unit fails after storing');
        }),
      ).rejects.toThrow('the unit fails after storing');

      expect(await stored(submission)).toEqual({ proposal: null, events: [], receipt: null, messages: [] });
    });
  });
}
