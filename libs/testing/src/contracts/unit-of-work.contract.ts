import {
  EventStore,
  OutboundMessage,
  PatternsChanged,
  PatternStore,
  ProposalRepository,
  UnitOfWork,
} from '@app/domain';
import { aPattern } from '../mothers/pattern.mother';
import { aProposalHistory } from '../mothers/proposal.mother';
import { companies, ContractOptions, uniqueId } from './contract-support';

export interface UnitOfWorkUnderTest {
  readonly unitOfWork: UnitOfWork;
  /** Readers outside any unit of work, to see what was committed. */
  readonly events: EventStore;
  readonly proposals: ProposalRepository;
  readonly patterns: PatternStore;
  readonly pendingMessages: (companyId: string) => Promise<OutboundMessage[]>;
}

/** The UnitOfWork contract: all of a unit's writes commit together, or none do. */
export function describeUnitOfWorkContract(
  name: string,
  factory: () => UnitOfWorkUnderTest | Promise<UnitOfWorkUnderTest>,
  options: ContractOptions = {},
): void {
  describe(`UnitOfWork contract: ${name}`, () => {
    let subject: UnitOfWorkUnderTest;
    let company: string;

    beforeEach(async () => {
      subject = await factory();
      [company] = await companies(options, 1);
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
        write: async (ports: Parameters<Parameters<UnitOfWork['run']>[0]>[0]) => {
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

    describe('with an expectation on the patterns (a submission scored against remembered patterns)', () => {
      /** A unit that only appends, inserts and notifies — the shape a submission has — after `expectActive`. */
      function submission(expected: Parameters<PatternStore['expectActive']>[2], readFirst = false) {
        const { proposal, write } = writeEverything();
        const run = () =>
          subject.unitOfWork.run(async (ports) => {
            if (readFirst) await ports.proposals.findById(company, proposal.id);
            await ports.patterns.expectActive(company, 'spotify', expected);
            // writeEverything's unit without its pattern save (an UPDATE would open the transaction).
            await write({ ...ports, patterns: { save: async () => undefined } as unknown as PatternStore });
          });
        return { proposal, run };
      }

      it('commits the unit when the patterns are still as expected', async () => {
        const pattern = aPattern({ id: uniqueId(), companyId: company, merchantName: 'Spotify' });
        await subject.patterns.save(pattern, null);
        const { proposal, run } = submission([pattern]);

        await run();

        expect(await subject.proposals.findById(company, proposal.id)).not.toBeNull();
        expect(await subject.events.readChain(company, proposal.correlationId)).toHaveLength(1);
      });

      it.each([
        ['only writes', false],
        ['reads first', true],
      ])(
        'commits none of a unit that %s when the patterns changed, and fails with PatternsChanged',
        async (_, readFirst) => {
          const pattern = aPattern({ id: uniqueId(), companyId: company, merchantName: 'Spotify' });
          await subject.patterns.save(pattern, null);
          await subject.patterns.save({ ...pattern, approvals: pattern.approvals + 1, version: 2 }, 1);
          const { proposal, run } = submission([pattern], readFirst);

          await expect(run()).rejects.toBeInstanceOf(PatternsChanged);

          expect(await subject.proposals.findById(company, proposal.id)).toBeNull();
          expect(await subject.events.readChain(company, proposal.correlationId)).toEqual([]);
          expect(await subject.pendingMessages(company)).toEqual([]);
        },
      );
    });
  });
}
