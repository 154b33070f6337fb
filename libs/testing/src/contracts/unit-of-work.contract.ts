import type { TransactionalPorts, UnitOfWork } from '@app/application';
import type { EventStore, OutboundMessage, PatternStore, ProposalRepository } from '@app/domain';
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

/**
 * The UnitOfWork contract: all of a unit's writes commit together, or none do. The stores only a
 * unit of work hands out have contracts of their own (receipt-store, idempotency-store).
 */
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
  });
}
