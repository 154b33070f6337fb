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

  it('refuses to approve a supplier invoice whose twin is already approved, naming it, and stores nothing', async () => {
    const invoice = (n: number) =>
      aRepeatSubmission(n, {
        kind: 'supplier_invoice',
        merchant: 'Kontorrekvisita Nord AS',
        supplier: { name: 'Kontorrekvisita Nord AS', organizationNumber: '923609016' },
        invoiceNumber: 'F-77',
        dueDate: '2026-12-31',
        amount: `${100 + n}.00`,
      });
    const first = await submitted(world, invoice(1));
    const twin = await submitted(world, invoice(2));
    await world.approveProposal.execute({ caller: ACCOUNTANT, proposalId: first.proposal.id });

    const refused = world.approveProposal.execute({ caller: ACCOUNTANT, proposalId: twin.proposal.id });

    await expect(refused).rejects.toThrow(InvalidTransition);
    await expect(refused).rejects.toThrow(
      `supplier invoice F-77 of 923609016 is already approved, waiting for its execution, by proposal ${first.proposal.id}`,
    );
    expect((await world.proposals.findById(TEST_COMPANY, twin.proposal.id))?.status).toBe('PROPOSED');
  });

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

  describe("corrections and the chart's rules", () => {
    const withRules = (code: string, rules: Record<string, unknown>) => {
      const context = aCompanyContext();
      return {
        ...context,
        departments: [{ id: '7', name: 'Salg', number: '20' }],
        accounts: context.accounts.map((account) =>
          account.code === code
            ? {
                ...account,
                rules: {
                  lockedVatCode: null,
                  legalVatCodes: null,
                  ledgerType: 'general' as const,
                  requiresDepartment: false,
                  requiresProject: false,
                  inactive: false,
                  ...rules,
                },
              }
            : account,
        ),
      };
    };

    it("books the corrected account and rate: a single-line proposal's line follows them", async () => {
      const { proposal } = await unknownMerchant();

      const approved = await world.approveProposal.execute({
        caller: ACCOUNTANT,
        proposalId: proposal.id,
        corrections: { accountCode: '6540', vatRate: '15' },
      });

      expect(approved.proposal.lines).toEqual([
        expect.objectContaining({ accountCode: '6540', vatRate: '15', amount: proposal.amount }),
      ]);
    });

    it('changes how it was paid, the department and the lines, and records them on the Approved event', async () => {
      await world.contexts.save(withRules('6550', {}));
      const { proposal } = await unknownMerchant();
      const half = Math.floor(proposal.amount / 2);
      const amount = (minor: number) => (minor / 100).toFixed(2);

      const approved = await world.approveProposal.execute({
        caller: ACCOUNTANT,
        proposalId: proposal.id,
        corrections: {
          paidWith: 'employee',
          departmentId: '7',
          lines: [
            { accountCode: '6540', vatRate: '25', amount: amount(half) },
            { accountCode: '6550', vatRate: '15', amount: amount(proposal.amount - half), description: 'cables' },
          ],
        },
      });

      expect(approved.proposal).toMatchObject({
        paidWith: 'employee',
        departmentId: '7',
        accountCode: '6540',
        lines: [
          { accountCode: '6540', vatRate: '25', amount: half, description: null },
          { accountCode: '6550', vatRate: '15', amount: proposal.amount - half, description: 'cables' },
        ],
      });
      const event = approved.events.find((e) => e.type === 'Approved');
      expect(event?.data).toMatchObject({
        corrections: {
          paidWith: 'employee',
          departmentId: '7',
          lines: [
            { accountCode: '6540', amount: amount(half) },
            { accountCode: '6550', amount: amount(proposal.amount - half) },
          ],
        },
      });
    });

    it("refuses corrections that break the chart's rules, naming the corrected field, and approves nothing", async () => {
      await world.contexts.save(withRules('6550', { lockedVatCode: '1' }));
      const { proposal } = await unknownMerchant();

      await expect(
        world.approveProposal.execute({
          caller: ACCOUNTANT,
          proposalId: proposal.id,
          corrections: { accountCode: '6550', vatRate: '15' },
        }),
      ).rejects.toMatchObject({
        code: 'account_rule_violated',
        message: 'account 6550 only takes VAT code 1, not 11',
        fieldErrors: [expect.objectContaining({ field: 'corrections.vatRate' })],
      });
      expect((await world.proposals.findById(TEST_COMPANY, proposal.id))?.status).toBe('PROPOSED');
    });

    it('asks for a department when the corrected account requires one', async () => {
      await world.contexts.save(withRules('6550', { requiresDepartment: true }));
      const { proposal } = await unknownMerchant();

      await expect(
        world.approveProposal.execute({
          caller: ACCOUNTANT,
          proposalId: proposal.id,
          corrections: { accountCode: '6550' },
        }),
      ).rejects.toMatchObject({ code: 'department_required' });

      const approved = await world.approveProposal.execute({
        caller: ACCOUNTANT,
        proposalId: proposal.id,
        corrections: { accountCode: '6550', departmentId: '7' },
      });
      expect(approved.proposal).toMatchObject({ accountCode: '6550', departmentId: '7' });
    });

    it('refuses a correction to the company card while its account is not set', async () => {
      const { proposal } = await unknownMerchant();

      await expect(
        world.approveProposal.execute({
          caller: ACCOUNTANT,
          proposalId: proposal.id,
          corrections: { paidWith: 'company_card' },
        }),
      ).rejects.toMatchObject({ code: 'payment_account_not_configured' });
    });

    it('refuses malformed corrections and corrections that do not fit the proposal, every field at once', async () => {
      const { proposal } = await unknownMerchant();

      expect(
        await fieldsOf(
          world.approveProposal.execute({
            caller: ACCOUNTANT,
            proposalId: proposal.id,
            corrections: { paidWith: 'cash', vatTreatment: 'exempt', lines: [{ accountCode: '65', amount: '-1' }] },
          }),
        ),
      ).toEqual([
        'corrections.vatTreatment',
        'corrections.paidWith',
        'corrections.lines.0.accountCode',
        'corrections.lines.0.vatRate',
        'corrections.lines.0.amount',
      ]);
      expect(
        await fieldsOf(
          world.approveProposal.execute({
            caller: ACCOUNTANT,
            proposalId: proposal.id,
            corrections: {
              lines: [{ accountCode: '6540', vatRate: '25', amount: '1.00' }],
              dueDate: '2026-12-01',
              vatTreatment: 'reverse_charge',
            },
          }),
        ),
      ).toEqual(['corrections.lines', 'corrections.dueDate', 'corrections.vatTreatment']);
    });
  });
});
