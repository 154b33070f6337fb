import { NotFound, PermissionDenied } from '@app/domain';
import {
  aSubmission,
  aUseCaseWorld,
  ACCOUNTANT,
  EMPLOYEE,
  endUseCaseWorlds,
  OTHER_COMPANY,
  PDF_BYTES,
  submitted,
  type UseCaseWorld,
} from '@app/testing';
import { GetProposalReceipt } from './get-proposal-receipt.query';

afterAll(endUseCaseWorlds);

describe('GetProposalReceipt', () => {
  let world: UseCaseWorld;
  let query: GetProposalReceipt;

  beforeEach(() => {
    world = aUseCaseWorld();
    query = new GetProposalReceipt(world.proposals, world.receipts);
  });

  it('gives the receipt of a proposal the caller may read', async () => {
    const { proposal } = await submitted(world);

    const receipt = await query.execute({ caller: ACCOUNTANT, proposalId: proposal.id });

    expect(receipt.contentType).toBe('application/pdf');
    expect(Buffer.from(receipt.bytes).equals(PDF_BYTES)).toBe(true);
  });

  it('does not find the receipt of a proposal without one', async () => {
    const { proposal } = await submitted(world, aSubmission({ receipt: null }));

    await expect(query.execute({ caller: ACCOUNTANT, proposalId: proposal.id })).rejects.toBeInstanceOf(NotFound);
  });

  it("does not find another company's receipt, and refuses an employee another person's", async () => {
    const { proposal } = await submitted(world);

    await expect(
      query.execute({ caller: { ...ACCOUNTANT, company: OTHER_COMPANY }, proposalId: proposal.id }),
    ).rejects.toBeInstanceOf(NotFound);
    await expect(
      query.execute({ caller: { ...EMPLOYEE, actor: 'colleague@example.no' }, proposalId: proposal.id }),
    ).rejects.toBeInstanceOf(PermissionDenied);
  });
});
