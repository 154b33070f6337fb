import { ConcurrencyConflict, InvalidTransition, NotFound, PermissionDenied, UnknownAccountCode } from '@app/domain';
import {
  aPattern,
  TEST_COMPANY,
  aCompanyContext,
  aRepeatSubmission,
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

describe('ApproveProposal', () => {
  let world: UseCaseWorld;

  beforeEach(() => {
    world = aUseCaseWorld();
  });

  const unknownMerchant = () =>
    submitted(world, aSubmission({ merchant: 'Kontorrekvisita Nord AS', accountCode: '6500' }));

  it('approves with corrections, to be executed now, and saves the pattern with the corrected values', async () => {
    const { proposal } = await unknownMerchant();
    world.clock.advance({ minutes: 3 });

    const approved = await world.approveProposal.execute({
      caller: ACCOUNTANT,
      proposalId: proposal.id,
      corrections: { accountCode: '6540', vatRate: '25.00' },
    });

    expect(approved.proposal).toMatchObject({
      status: 'APPROVED',
      accountCode: '6540',
      vatRate: '25',
      approvedBy: ACCOUNTANT.actor,
      corrections: { accountCode: '6540', vatRate: '25' },
      executeAfter: world.clock.now(),
    });
    expect(approved.events.map((e) => e.type)).toEqual(['Proposed', 'Approved']);
    expect(approved.pattern).toMatchObject({
      merchantKey: 'kontorrekvisita nord',
      accountCode: '6540',
      vatRate: '25',
      approvals: 1,
      verified: true,
      writtenBy: null,
      lastChangedBy: null,
      confirmedBy: [ACCOUNTANT.actor],
    });
    const patternEvents = await world.events.readChain(TEST_COMPANY, approved.pattern.id);
    expect(patternEvents).toEqual([
      expect.objectContaining({
        type: 'PatternSaved',
        proposalId: proposal.id,
        actor: ACCOUNTANT.actor,
        data: expect.objectContaining({ cause: 'approval' }),
      }),
    ]);
  });

  it('teaches the engine: the next proposal from that merchant is auto-approved', async () => {
    const { proposal } = await unknownMerchant();
    await world.approveProposal.execute({
      caller: ACCOUNTANT,
      proposalId: proposal.id,
      corrections: { accountCode: '6540' },
    });

    const next = await submitted(
      world,
      aRepeatSubmission(1, { merchant: 'KONTORREKVISITA NORD A/S', accountCode: '6540' }),
    );

    expect(next.proposal).toMatchObject({ status: 'APPROVED', route: 'auto_approve', autoApproved: true });
  });

  it('strengthens the pattern that already exists for the approved values', async () => {
    const existing = aPattern({
      merchantName: 'Kontorrekvisita Nord AS',
      accountCode: '6500',
      approvals: 0,
      verified: false,
    });
    await world.patterns.save(existing, null);
    const { proposal } = await unknownMerchant();

    const { pattern } = await world.approveProposal.execute({ caller: ACCOUNTANT, proposalId: proposal.id });

    expect(pattern).toMatchObject({ id: existing.id, approvals: 1, verified: true, version: 2 });
  });

  it('refuses the submitter approving their own proposal (separation of duties) and stores nothing', async () => {
    const { proposal } = await unknownMerchant();
    const self = { ...ACCOUNTANT, actor: EMPLOYEE.actor.toUpperCase() };

    const error = await world.approveProposal
      .execute({ caller: self, proposalId: proposal.id })
      .catch((e: unknown) => e);

    expect(error).toBeInstanceOf(PermissionDenied);
    expect((error as Error).message).toMatch(/separation of duties/);
    expect(world.events.all()).toHaveLength(1);
    expect(world.patterns.all()).toEqual([]);
  });

  it.each(['APPROVED', 'REJECTED'] as const)(
    'refuses a proposal that is %s with invalid_transition',
    async (status) => {
      const { proposal } = await unknownMerchant();
      if (status === 'APPROVED') await world.approveProposal.execute({ caller: ACCOUNTANT, proposalId: proposal.id });
      else await world.rejectProposal.execute({ caller: ACCOUNTANT, proposalId: proposal.id, reason: 'duplicate' });

      await expect(
        world.approveProposal.execute({ caller: ACCOUNTANT, proposalId: proposal.id }),
      ).rejects.toBeInstanceOf(InvalidTransition);
    },
  );

  it("does not find another company's proposal", async () => {
    const { proposal } = await unknownMerchant();

    await expect(
      world.approveProposal.execute({ caller: { ...ACCOUNTANT, company: OTHER_COMPANY }, proposalId: proposal.id }),
    ).rejects.toBeInstanceOf(NotFound);
  });

  it('validates the corrections', async () => {
    const { proposal } = await unknownMerchant();

    expect(
      await fieldsOf(
        world.approveProposal.execute({
          caller: ACCOUNTANT,
          proposalId: proposal.id,
          corrections: { accountCode: '65', vatRate: '101' },
        }),
      ),
    ).toEqual(['corrections.accountCode', 'corrections.vatRate']);
  });

  it("refuses a correction to an account the company's chart does not have", async () => {
    const { proposal } = await unknownMerchant();
    await world.contexts.save(aCompanyContext());

    const error = await world.approveProposal
      .execute({ caller: ACCOUNTANT, proposalId: proposal.id, corrections: { accountCode: '7777' } })
      .catch((e: unknown) => e);

    expect(error).toBeInstanceOf(UnknownAccountCode);
    expect(error).toMatchObject({ fieldErrors: [{ field: 'corrections.accountCode' }] });
    expect((await world.proposals.findById(TEST_COMPANY, proposal.id))?.status).toBe('PROPOSED');
  });

  it('lets exactly one of two concurrent approvals win; the other is an invalid transition', async () => {
    const { proposal } = await unknownMerchant();

    const outcomes = await Promise.allSettled([
      world.approveProposal.execute({ caller: ACCOUNTANT, proposalId: proposal.id }),
      world.approveProposal.execute({ caller: { ...ACCOUNTANT, actor: 'per@example.no' }, proposalId: proposal.id }),
    ]);

    expect(outcomes.map((o) => o.status).sort()).toEqual(['fulfilled', 'rejected']);
    expect((outcomes.find((o) => o.status === 'rejected') as PromiseRejectedResult).reason).toBeInstanceOf(
      InvalidTransition,
    );
    expect((await world.events.readChain(TEST_COMPANY, proposal.correlationId)).map((e) => e.sequence)).toEqual([1, 2]);
  });

  it('runs again when it loses a race on the pattern, and learns once', async () => {
    const { proposal } = await unknownMerchant();
    const save = world.patterns.save.bind(world.patterns);
    jest
      .spyOn(world.patterns, 'save')
      .mockImplementationOnce(async () => {
        throw new ConcurrencyConflict('an active pattern for this merchant was saved meanwhile');
      })
      .mockImplementation(save);

    const { pattern } = await world.approveProposal.execute({ caller: ACCOUNTANT, proposalId: proposal.id });

    expect(pattern.approvals).toBe(1);
    expect(world.patterns.all()).toHaveLength(1);
    expect(world.events.all().map((e) => e.type)).toEqual(['Proposed', 'Approved', 'PatternSaved']);
  });
});
