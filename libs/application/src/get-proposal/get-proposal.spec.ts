import { NotFound, PermissionDenied } from '@app/domain';
import {
  aSubmission,
  aUseCaseWorld,
  ACCOUNTANT,
  EMPLOYEE,
  OTHER_COMPANY,
  submitted,
  type UseCaseWorld,
  endUseCaseWorlds,
} from '@app/testing';

afterAll(endUseCaseWorlds);

describe('GetProposal', () => {
  let world: UseCaseWorld;

  beforeEach(() => {
    world = aUseCaseWorld();
  });

  it('gives an employee their own proposal with its events', async () => {
    const { proposal } = await submitted(world);

    const view = await world.getProposal.execute({
      caller: { ...EMPLOYEE, actor: EMPLOYEE.actor.toUpperCase() },
      proposalId: proposal.id,
    });

    expect(view.proposal).toEqual(proposal);
    expect(view.events.map((e) => e.type)).toEqual(['Proposed']);
  });

  it("refuses an employee another person's proposal with permission_denied", async () => {
    const { proposal } = await submitted(world);

    await expect(
      world.getProposal.execute({ caller: { ...EMPLOYEE, actor: 'colleague@example.no' }, proposalId: proposal.id }),
    ).rejects.toBeInstanceOf(PermissionDenied);
  });

  it.each(['manager', 'accountant', 'admin'] as const)('gives a %s every proposal of the company', async (role) => {
    const { proposal } = await submitted(world);

    await expect(
      world.getProposal.execute({ caller: { ...ACCOUNTANT, role }, proposalId: proposal.id }),
    ).resolves.toMatchObject({
      proposal: { id: proposal.id },
    });
  });

  it("does not find another company's proposal, nor a missing one", async () => {
    const { proposal } = await submitted(world);

    await expect(
      world.getProposal.execute({ caller: { ...ACCOUNTANT, company: OTHER_COMPANY }, proposalId: proposal.id }),
    ).rejects.toBeInstanceOf(NotFound);
    await expect(world.getProposal.execute({ caller: ACCOUNTANT, proposalId: 'missing' })).rejects.toBeInstanceOf(
      NotFound,
    );
  });

  it('lists only the proposal’s own events when a resubmission shares the chain', async () => {
    const { proposal } = await submitted(world, aSubmission({ merchant: 'Unknown Vendor' }));
    await world.rejectProposal.execute({ caller: ACCOUNTANT, proposalId: proposal.id, reason: 'wrong amount' });
    const { proposal: again } = await submitted(
      world,
      aSubmission({ merchant: 'Unknown Vendor', resubmissionOf: proposal.id }),
    );

    const view = await world.getProposal.execute({ caller: EMPLOYEE, proposalId: again.id });

    expect(view.events.map((e) => [e.type, e.sequence])).toEqual([['Proposed', 3]]);
  });
});
