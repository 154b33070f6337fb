import { InvalidTransition, NotFound, transitionProposal } from '@app/domain';
import {
  aPattern,
  TEST_COMPANY,
  aSubmission,
  aUseCaseWorld,
  ACCOUNTANT,
  EMPLOYEE,
  fieldsOf,
  OTHER_COMPANY,
  submitted,
  type UseCaseWorld,
  endUseCaseWorlds,
} from '@app/testing';

afterAll(endUseCaseWorlds);

describe('RejectProposal', () => {
  let world: UseCaseWorld;

  beforeEach(() => {
    world = aUseCaseWorld();
  });

  it('rejects a PROPOSED proposal and tells the user in their thread why', async () => {
    const { proposal } = await submitted(world, aSubmission({ merchant: 'Unknown Vendor' }));
    world.notifier.clear();

    const rejected = await world.rejectProposal.execute({
      caller: ACCOUNTANT,
      proposalId: proposal.id,
      reason: '  wrong amount ',
    });

    expect(rejected.proposal).toMatchObject({
      status: 'REJECTED',
      rejectedBy: ACCOUNTANT.actor,
      rejectionReason: 'wrong amount',
    });
    expect(rejected.events.map((e) => [e.type, e.status])).toEqual([
      ['Proposed', 'PROPOSED'],
      ['Rejected', 'REJECTED'],
    ]);
    expect(world.notifier.messages()).toEqual([
      {
        companyId: TEST_COMPANY,
        target: 'user_thread',
        kind: 'proposal_rejected',
        payload: expect.objectContaining({
          proposalId: proposal.id,
          reason: 'wrong amount',
          rejectedBy: ACCOUNTANT.actor,
          actor: EMPLOYEE.actor,
          thread: { channel: 'slack', threadId: 'C01/1700000000.000100' },
        }),
      },
    ]);
  });

  it('rejects an auto-approved proposal that is waiting out the execution delay', async () => {
    await world.patterns.save(aPattern(), null);
    const { proposal } = await submitted(world);
    expect(proposal.status).toBe('APPROVED');

    const rejected = await world.rejectProposal.execute({
      caller: ACCOUNTANT,
      proposalId: proposal.id,
      reason: 'private purchase',
    });

    expect(rejected.proposal.status).toBe('REJECTED');
    expect(rejected.events.map((e) => e.type)).toEqual(['Proposed', 'Approved', 'Rejected']);
  });

  it('refuses an EXECUTED proposal and a REJECTED one with invalid_transition', async () => {
    await world.patterns.save(aPattern(), null);
    const { proposal } = await submitted(world);
    world.clock.advance({ minutes: 15 });
    const executed = transitionProposal(
      proposal,
      {
        type: 'MarkExecuted',
        origin: { actor: 'executor', channel: 'web', provider: 'tripletex' },
        bookingId: 'v-1',
        apiCalls: [],
      },
      world.ctx,
    );
    await world.proposals.update(executed.proposal, proposal.version);
    const { proposal: other } = await submitted(world, aSubmission({ merchant: 'Unknown Vendor' }));
    await world.rejectProposal.execute({ caller: ACCOUNTANT, proposalId: other.id, reason: 'no' });

    await expect(
      world.rejectProposal.execute({ caller: ACCOUNTANT, proposalId: proposal.id, reason: 'too late' }),
    ).rejects.toBeInstanceOf(InvalidTransition);
    await expect(
      world.rejectProposal.execute({ caller: ACCOUNTANT, proposalId: other.id, reason: 'again' }),
    ).rejects.toBeInstanceOf(InvalidTransition);
  });

  it.each([
    ['empty', '   '],
    ['longer than 1000 characters', 'x'.repeat(1001)],
  ])('requires a reason: refuses one that is %s', async (_label, reason) => {
    const { proposal } = await submitted(world, aSubmission({ merchant: 'Unknown Vendor' }));

    expect(
      await fieldsOf(world.rejectProposal.execute({ caller: ACCOUNTANT, proposalId: proposal.id, reason })),
    ).toEqual(['reason']);
  });

  it("does not find another company's proposal", async () => {
    const { proposal } = await submitted(world);

    await expect(
      world.rejectProposal.execute({
        caller: { ...ACCOUNTANT, company: OTHER_COMPANY },
        proposalId: proposal.id,
        reason: 'x',
      }),
    ).rejects.toBeInstanceOf(NotFound);
  });
});
