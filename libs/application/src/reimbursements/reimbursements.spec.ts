import { InvalidTransition, NotFound, PermissionDenied, type ExpenseDetails, type Proposal } from '@app/domain';
import {
  ACCOUNTANT,
  aProposalHistory,
  EMPLOYEE,
  endUseCaseWorlds,
  OTHER_COMPANY,
  SUBMITTER,
  TEST_COMPANY,
  aUseCaseWorld,
  type UseCaseWorld,
} from '@app/testing';

afterAll(endUseCaseWorlds);

describe('Reimbursements', () => {
  let world: UseCaseWorld;

  beforeEach(() => {
    world = aUseCaseWorld();
  });

  /** Stores a proposal in `status` (with its events), as the state machine builds it. */
  async function stored(
    status: 'PROPOSED' | 'EXECUTED',
    details: Partial<ExpenseDetails>,
    companyId = TEST_COMPANY,
  ): Promise<Proposal> {
    const { proposal, events } = aProposalHistory(status, { ctx: world.ctx, details, companyId });
    await world.proposals.insert(proposal);
    await world.events.append(events);
    return proposal;
  }

  const outlay = (amount: number, more: Partial<ExpenseDetails> = {}) => ({
    paidWith: 'employee' as const,
    amount,
    ...more,
  });

  it('lists executed employee outlays only, with the NOK amount, the mapping and the totals', async () => {
    const food = await stored('EXECUTED', outlay(34_555));
    const hotel = await stored('EXECUTED', outlay(10_000, { currency: 'EUR', amountNok: 117_250, vatRate: '0' }));
    await stored('EXECUTED', { paidWith: 'bank' });
    await stored('EXECUTED', { paidWith: 'company_card' });
    await stored('PROPOSED', outlay(9_990));
    await stored('EXECUTED', outlay(5_000), OTHER_COMPANY);
    await world.employees.save(
      TEST_COMPANY,
      'ola',
      {
        email: SUBMITTER,
        role: 'employee',
        externalIdentities: [],
        providerEmployeeId: '42',
        defaultDepartmentId: null,
      },
      world.clock.now(),
    );

    const list = await world.listReimbursements.execute({ caller: ACCOUNTANT });

    expect(list.status).toBe('open');
    expect(list.items.map((i) => i.proposal.id)).toEqual([food.id, hotel.id]);
    expect(list.items[0].employee).toMatchObject({ userId: 'ola', providerEmployeeId: '42' });
    expect(list.items[0].bookedAt).toEqual(expect.any(Date));
    expect(list.totalsByEmployee).toEqual([{ employee: SUBMITTER, count: 2, amountNok: 34_555 + 117_250 }]);
  });

  it('marks an outlay paid back once: it leaves the open list, and the event is on its chain', async () => {
    const food = await stored('EXECUTED', outlay(34_555));

    const paid = await world.markReimbursementPaid.execute({
      caller: ACCOUNTANT,
      proposalId: food.id,
      paidOn: '2026-11-20',
      reference: 'TR-1',
    });

    expect(paid.reimbursement).toEqual({
      paidOn: '2026-11-20',
      reference: 'TR-1',
      markedBy: ACCOUNTANT.actor,
      markedAt: world.clock.now(),
    });
    expect((await world.listReimbursements.execute({ caller: ACCOUNTANT })).items).toEqual([]);
    const [onPaid] = (await world.listReimbursements.execute({ caller: ACCOUNTANT, status: 'paid' })).items;
    expect(onPaid.proposal.reimbursement?.reference).toBe('TR-1');
    const chain = await world.events.readChain(TEST_COMPANY, food.correlationId);
    expect(chain.at(-1)).toMatchObject({
      type: 'ReimbursementPaid',
      actor: ACCOUNTANT.actor,
      data: { paidOn: '2026-11-20', reference: 'TR-1', amountNok: '345.55' },
    });

    await expect(
      world.markReimbursementPaid.execute({ caller: ACCOUNTANT, proposalId: food.id }),
    ).rejects.toBeInstanceOf(InvalidTransition);
    expect((await world.events.readChain(TEST_COMPANY, food.correlationId)).length).toBe(chain.length);
  });

  it('refuses what is not an executed outlay, and another company’s proposal', async () => {
    const bank = await stored('EXECUTED', { paidWith: 'bank' });
    const pending = await stored('PROPOSED', outlay(9_990));
    const elsewhere = await stored('EXECUTED', outlay(5_000), OTHER_COMPANY);
    const mark = (proposalId: string) => world.markReimbursementPaid.execute({ caller: ACCOUNTANT, proposalId });

    await expect(mark(bank.id)).rejects.toThrow(/not an employee's outlay/);
    await expect(mark(pending.id)).rejects.toThrow(/status PROPOSED/);
    await expect(mark(elsewhere.id)).rejects.toBeInstanceOf(NotFound);
  });

  it('shows an employee only their own outlays', async () => {
    const own = await stored('EXECUTED', outlay(1_000));
    const { proposal: colleague, events } = aProposalHistory('EXECUTED', { ctx: world.ctx, details: outlay(2_000) });
    const theirs = { ...colleague, submittedBy: 'kari@example.no' };
    await world.proposals.insert(theirs);
    await world.events.append(events);

    const list = await world.listReimbursements.execute({ caller: EMPLOYEE, status: 'all' });

    expect(list.items.map((i) => i.proposal.id)).toEqual([own.id]);
    expect(list.totalsByEmployee).toEqual([{ employee: SUBMITTER, count: 1, amountNok: 1_000 }]);
    await expect(
      world.listReimbursements.execute({ caller: EMPLOYEE, employee: 'kari@example.no' }),
    ).rejects.toBeInstanceOf(PermissionDenied);
  });
});
