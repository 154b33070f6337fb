import {
  aPattern,
  aRepeatSubmission,
  aSubmission,
  aUseCaseWorld,
  ACCOUNTANT,
  fieldsOf,
  OTHER_COMPANY,
  submitted,
  type UseCaseWorld,
  endUseCaseWorlds,
} from '@app/testing';

afterAll(endUseCaseWorlds);

describe('ListEvents', () => {
  let world: UseCaseWorld;
  const caller = { ...ACCOUNTANT, role: 'manager' as const };

  beforeEach(async () => {
    world = aUseCaseWorld();
    await world.patterns.save(aPattern(), null);
  });

  it('lists the pending proposals with status=PROPOSED', async () => {
    const pending = await submitted(world, aSubmission({ merchant: 'Unknown Vendor' }));
    await submitted(world, aRepeatSubmission(1));
    const rejected = await submitted(world, aRepeatSubmission(2, { merchant: 'Another Vendor' }));
    await world.rejectProposal.execute({ caller: ACCOUNTANT, proposalId: rejected.proposal.id, reason: 'duplicate' });

    const page = await world.listEvents.execute({ caller, status: 'PROPOSED' });

    expect(page.items.map((e) => [e.type, e.proposalId])).toEqual([['Proposed', pending.proposal.id]]);
    expect(page.nextCursor).toBeNull();
  });

  it("gives one chain's whole history, oldest first, with correlationId", async () => {
    const first = await submitted(world, aSubmission({ merchant: 'Unknown Vendor' }));
    await world.rejectProposal.execute({ caller: ACCOUNTANT, proposalId: first.proposal.id, reason: 'wrong amount' });
    await submitted(world);
    await submitted(world, aSubmission({ merchant: 'Unknown Vendor', resubmissionOf: first.proposal.id }));

    const page = await world.listEvents.execute({ caller, correlationId: first.proposal.correlationId });

    expect(page.items.map((e) => [e.type, e.sequence])).toEqual([
      ['Proposed', 1],
      ['Rejected', 2],
      ['Proposed', 3],
    ]);
  });

  it('filters by type and time, and pages with limit and cursor', async () => {
    await submitted(world, aRepeatSubmission(1));
    world.clock.advance({ minutes: 10 });
    const from = world.clock.now();
    await submitted(world, aRepeatSubmission(2));
    await submitted(world, aRepeatSubmission(3));

    const firstPage = await world.listEvents.execute({ caller, type: 'Approved', from, limit: 1 });
    const secondPage = await world.listEvents.execute({
      caller,
      type: 'Approved',
      from,
      limit: 1,
      cursor: firstPage.nextCursor,
    });

    expect(firstPage.items).toHaveLength(1);
    expect(firstPage.nextCursor).not.toBeNull();
    expect(secondPage.items).toHaveLength(1);
    expect(secondPage.nextCursor).toBeNull();
    expect(secondPage.items[0].id).not.toBe(firstPage.items[0].id);
    expect([...firstPage.items, ...secondPage.items].every((e) => e.type === 'Approved' && e.occurredAt >= from)).toBe(
      true,
    );
  });

  it('lists 50 events unless told', async () => {
    for (let i = 1; i <= 26; i++) await submitted(world, aRepeatSubmission(i));

    const page = await world.listEvents.execute({ caller });

    expect(page.items).toHaveLength(50);
    expect(page.nextCursor).not.toBeNull();
  });

  it("never shows another company's events", async () => {
    await submitted(world);

    expect((await world.listEvents.execute({ caller: { ...caller, company: OTHER_COMPANY } })).items).toEqual([]);
  });

  it('refuses a time window that ends before it starts', async () => {
    const at = world.clock.now();

    expect(await fieldsOf(world.listEvents.execute({ caller, from: at, to: at }))).toEqual(['to']);
  });
});
