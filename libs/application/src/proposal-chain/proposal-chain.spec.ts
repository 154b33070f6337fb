import { EventChainVerification, NotFound, PermissionDenied, type EventsVerification } from '@app/domain';
import { GetProposalChain } from './proposal-chain.query';
import {
  aUseCaseWorld,
  ACCOUNTANT,
  EMPLOYEE,
  OTHER_COMPANY,
  submitted,
  type UseCaseWorld,
  endUseCaseWorlds,
} from '@app/testing';

/** Answers every chain with `result` and remembers what it was asked. */
class RecordingVerification extends EventChainVerification {
  readonly asked: { companyId: string; correlationId: string }[] = [];
  constructor(private readonly result: EventsVerification) {
    super();
  }
  verifyChain(companyId: string, correlationId: string): Promise<EventsVerification> {
    this.asked.push({ companyId, correlationId });
    return Promise.resolve(this.result);
  }
}

const BROKEN: EventsVerification = {
  ok: false,
  events: [{ eventId: null, sequence: 1, chainIndex: null, state: 'broken', reason: 'removed' }],
  verified: 0,
  pending: 0,
  broken: 1,
  keyed: true,
};

afterAll(endUseCaseWorlds);

describe('GetProposalChain', () => {
  let world: UseCaseWorld;
  let verification: RecordingVerification;
  let query: GetProposalChain;

  beforeEach(() => {
    world = aUseCaseWorld();
    verification = new RecordingVerification(BROKEN);
    query = new GetProposalChain(world.proposals, world.events, verification, world.settings);
  });

  it("gives the proposal, its chain's events and the verification of that chain", async () => {
    const { proposal } = await submitted(world);
    await world.rejectProposal.execute({ caller: ACCOUNTANT, proposalId: proposal.id, reason: 'private purchase' });

    const view = await query.execute({ caller: ACCOUNTANT, proposalId: proposal.id });

    expect(view.proposal.id).toBe(proposal.id);
    expect(view.events.map((e) => e.type)).toEqual(['Proposed', 'Rejected']);
    expect(view.verification).toBe(BROKEN);
    expect(verification.asked).toEqual([{ companyId: ACCOUNTANT.company, correlationId: proposal.correlationId }]);
  });

  it("does not find another company's proposal, and checks nothing", async () => {
    const { proposal } = await submitted(world);

    await expect(
      query.execute({ caller: { ...ACCOUNTANT, company: OTHER_COMPANY }, proposalId: proposal.id }),
    ).rejects.toBeInstanceOf(NotFound);
    expect(verification.asked).toEqual([]);
  });

  it("refuses an employee another person's proposal with permission_denied", async () => {
    const { proposal } = await submitted(world);

    await expect(
      query.execute({ caller: { ...EMPLOYEE, actor: 'colleague@example.no' }, proposalId: proposal.id }),
    ).rejects.toBeInstanceOf(PermissionDenied);
  });
});
