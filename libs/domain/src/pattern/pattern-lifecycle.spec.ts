import {
  ManualClock,
  SequentialIdGenerator,
  aPattern,
  aProposal,
  anOrigin,
  aReviewerOrigin,
  REVIEWER,
  SUBMITTER,
} from '@app/testing';
import { InvalidTransition, ValidationFailed } from '../errors/domain-error';
import { DomainContext } from '../shared/domain-context';
import {
  createPattern,
  editPattern,
  learnFromApproval,
  observeExecutedAutoApproval,
  retirePattern,
} from './pattern-lifecycle';

function newContext(): DomainContext & { clock: ManualClock } {
  return { clock: new ManualClock('2026-11-21T09:00:00.000Z'), ids: new SequentialIdGenerator(2) };
}

describe('learning patterns from approvals', () => {
  it('saves a new verified pattern with the approved values, in its own chain', () => {
    const ctx = newContext();
    const proposal = aProposal('APPROVED');

    const { pattern, events } = learnFromApproval(null, proposal, aReviewerOrigin(), ctx);

    expect(pattern).toMatchObject({
      companyId: 'acme',
      merchantKey: 'spotify',
      merchantName: 'Spotify AB',
      accountCode: '6540',
      vatRate: '25',
      approvals: 1,
      verified: true,
      version: 1,
      amountStats: { count: 1, mean: 11900, m2: 0, min: 11900, max: 11900 },
      retiredAt: null,
      writtenBy: null,
      lastChangedBy: null,
      confirmedBy: [REVIEWER],
    });
    expect(events).toEqual([
      expect.objectContaining({
        type: 'PatternSaved',
        status: null,
        proposalId: proposal.id,
        correlationId: pattern.id,
        sequence: 1,
        actor: REVIEWER,
        company: 'acme',
        provider: null,
        api_calls: [],
        confidence: null,
        data: expect.objectContaining({
          cause: 'approval',
          pattern: expect.objectContaining({ id: pattern.id, approvals: 1 }),
        }),
      }),
    ]);
  });

  it('strengthens the existing pattern: one more approval and amount observation, next version', () => {
    const ctx = newContext();
    const existing = aPattern({ approvals: 3, version: 4, verified: false, amounts: [11900, 11900, 11900] });
    const proposal = aProposal('APPROVED', { details: { amount: 12900 } });

    const { pattern, events } = learnFromApproval(existing, proposal, aReviewerOrigin(), ctx);

    expect(pattern).toMatchObject({
      id: existing.id,
      approvals: 4,
      verified: true,
      version: 5,
      amountStats: { count: 4, min: 11900, max: 12900 },
    });
    expect(pattern.amountStats.mean).toBeCloseTo(12150, 6);
    expect(events[0]).toMatchObject({ correlationId: existing.id, sequence: 5 });
  });

  it('learns the VAT treatment and, from a supplier invoice, the supplier organisation number', () => {
    const supplier = { name: 'Spotify AB', organizationNumber: '923609016', bankAccount: null, kid: null };
    const invoice = { ...aProposal('APPROVED'), kind: 'supplier_invoice' as const, supplier };
    const learnt = learnFromApproval(null, invoice, aReviewerOrigin(), newContext());

    expect(learnt.pattern).toMatchObject({ vatTreatment: 'domestic', supplierOrganizationNumber: '923609016' });
    expect(learnt.events[0].data.pattern).toMatchObject({
      vatTreatment: 'domestic',
      supplierOrganizationNumber: '923609016',
    });
  });

  it('takes the latest approval’s treatment and supplier; an expense, naming no supplier, keeps the one known', () => {
    const existing = aPattern({ vatTreatment: null, supplierOrganizationNumber: '923609016' });
    const reverse = { ...aProposal('APPROVED'), vatTreatment: 'reverse_charge' as const };
    const other = {
      ...aProposal('APPROVED'),
      supplier: { name: 'Spotify AB', organizationNumber: '974760673', bankAccount: null, kid: null },
    };

    expect(learnFromApproval(existing, reverse, aReviewerOrigin(), newContext()).pattern).toMatchObject({
      vatTreatment: 'reverse_charge',
      supplierOrganizationNumber: '923609016',
    });
    expect(learnFromApproval(existing, other, aReviewerOrigin(), newContext()).pattern.supplierOrganizationNumber).toBe(
      '974760673',
    );
  });

  it('learns the corrected values of an approval with corrections', () => {
    const ctx = newContext();
    const proposal = { ...aProposal('APPROVED'), accountCode: '6300', vatRate: '15' };

    expect(learnFromApproval(null, proposal, aReviewerOrigin(), ctx).pattern).toMatchObject({
      accountCode: '6300',
      vatRate: '15',
    });
  });

  it('adds the reviewer to the confirmers, newest first, each person once, two at most', () => {
    const ctx = newContext();
    const existing = aPattern({ confirmedBy: ['per@example.no', 'nora@example.no'] });

    const once = learnFromApproval(existing, aProposal('APPROVED'), aReviewerOrigin(), ctx).pattern;
    const twice = learnFromApproval(once, aProposal('APPROVED'), aReviewerOrigin({ actor: 'KARI@example.no' }), ctx);

    expect(once.confirmedBy).toEqual([REVIEWER, 'per@example.no']);
    expect(twice.pattern.confirmedBy).toEqual(['KARI@example.no', 'per@example.no']);
  });

  it('confirms an unverified pattern afresh: the reviewer alone', () => {
    const existing = aPattern({ verified: false, writtenBy: 'per@example.no' });

    const { pattern } = learnFromApproval(existing, aProposal('APPROVED'), aReviewerOrigin(), newContext());

    expect(pattern).toMatchObject({ verified: true, confirmedBy: [REVIEWER], writtenBy: 'per@example.no' });
  });

  it('learns under the key the merchant has today, whatever key the proposal was stored with', () => {
    const stored = {
      ...aProposal('APPROVED', { details: { merchant: 'SPOTIFY AB *P2B9C1X' } }),
      merchantKey: 'old key',
    };
    const existing = aPattern();

    expect(learnFromApproval(existing, stored, aReviewerOrigin(), newContext()).pattern.approvals).toBe(4);
    expect(learnFromApproval(null, stored, aReviewerOrigin(), newContext()).pattern.merchantKey).toBe('spotify');
  });

  it('refuses to learn from a proposal that is not approved', () => {
    expect(() => learnFromApproval(null, aProposal('PROPOSED'), aReviewerOrigin(), newContext())).toThrow(
      InvalidTransition,
    );
  });

  it('refuses to strengthen a pattern of another account', () => {
    const existing = aPattern({ accountCode: '6300' });
    expect(() => learnFromApproval(existing, aProposal('APPROVED'), aReviewerOrigin(), newContext())).toThrow(
      InvalidTransition,
    );
  });
});

describe('an accountant’s patterns', () => {
  it('creates a verified pattern without approvals', () => {
    const ctx = newContext();

    const { pattern, events } = createPattern(
      'acme',
      { merchantName: 'Telenor Norge AS', accountCode: '6900', vatRate: '25' },
      aReviewerOrigin(),
      ctx,
    );

    expect(pattern).toMatchObject({
      merchantKey: 'telenor norge',
      approvals: 0,
      verified: true,
      amountStats: { count: 0, min: null },
    });
    expect(events[0]).toMatchObject({
      type: 'PatternSaved',
      proposalId: null,
      sequence: 1,
      data: { cause: 'created' },
    });
  });

  it('records its writer, who is its only confirmer, or none when unverified', () => {
    const origin = aReviewerOrigin({ actor: 'per@example.no' });
    const fields = { merchantName: 'Telenor', accountCode: '6900', vatRate: '25' };

    expect(createPattern('acme', fields, origin, newContext()).pattern).toMatchObject({
      writtenBy: 'per@example.no',
      lastChangedBy: null,
      confirmedBy: ['per@example.no'],
    });
    expect(createPattern('acme', { ...fields, verified: false }, origin, newContext()).pattern).toMatchObject({
      writtenBy: 'per@example.no',
      confirmedBy: [],
    });
  });

  it('refuses an invalid pattern, naming every field', () => {
    try {
      createPattern('acme', { merchantName: '', accountCode: 'x', vatRate: '200' }, aReviewerOrigin(), newContext());
      throw new Error('expected ValidationFailed');
    } catch (error) {
      expect(error).toBeInstanceOf(ValidationFailed);
      expect((error as ValidationFailed).fieldErrors?.map((e) => e.field)).toEqual([
        'merchantName',
        'accountCode',
        'vatRate',
      ]);
    }
  });

  it('takes a VAT treatment and a supplier organisation number, or none (not known), and refuses invalid ones', () => {
    const fields = { merchantName: 'Telenor', accountCode: '6900', vatRate: '25' };
    const named = createPattern(
      'acme',
      { ...fields, vatTreatment: 'domestic', supplierOrganizationNumber: '923 609 016' },
      aReviewerOrigin(),
      newContext(),
    ).pattern;

    expect(named).toMatchObject({ vatTreatment: 'domestic', supplierOrganizationNumber: '923609016' });
    expect(createPattern('acme', fields, aReviewerOrigin(), newContext()).pattern).toMatchObject({
      vatTreatment: null,
      supplierOrganizationNumber: null,
    });
    try {
      createPattern(
        'acme',
        { ...fields, vatTreatment: 'abroad', supplierOrganizationNumber: '923609017' },
        aReviewerOrigin(),
        newContext(),
      );
      throw new Error('expected ValidationFailed');
    } catch (error) {
      expect(error).toBeInstanceOf(ValidationFailed);
      expect((error as ValidationFailed).fieldErrors?.map((e) => e.field)).toEqual([
        'vatTreatment',
        'supplierOrganizationNumber',
      ]);
    }
  });

  it('edits the treatment and the supplier (null forgets them); either is an edit of the rule', () => {
    const pattern = aPattern({ supplierOrganizationNumber: '923609016', confirmedBy: [REVIEWER, 'per@example.no'] });
    const nora = aReviewerOrigin({ actor: 'nora@example.no' });

    const treated = editPattern(pattern, { vatTreatment: 'reverse_charge' }, nora, newContext()).pattern;
    const forgotten = editPattern(pattern, { supplierOrganizationNumber: null }, nora, newContext()).pattern;
    const renamed = editPattern(pattern, { merchantName: 'SPOTIFY' }, nora, newContext()).pattern;

    expect(treated).toMatchObject({ vatTreatment: 'reverse_charge', confirmedBy: ['nora@example.no'] });
    expect(forgotten).toMatchObject({ supplierOrganizationNumber: null, confirmedBy: ['nora@example.no'] });
    expect(renamed).toMatchObject({ vatTreatment: 'domestic', supplierOrganizationNumber: '923609016' });
  });

  it('edits a pattern, re-deriving its key, and keeps its counts', () => {
    const ctx = newContext();
    const pattern = aPattern({ approvals: 7, version: 2 });

    const { pattern: edited, events } = editPattern(
      pattern,
      { merchantName: 'Spotify Technology', accountCode: '6550' },
      aReviewerOrigin(),
      ctx,
    );

    expect(edited).toMatchObject({
      merchantKey: 'spotify technology',
      accountCode: '6550',
      vatRate: '25',
      approvals: 7,
      version: 3,
    });
    expect(events[0]).toMatchObject({ type: 'PatternSaved', sequence: 3, data: { cause: 'edited' } });
  });

  it('records the editor as last changer; an edit of the rule voids the earlier confirmations', () => {
    const pattern = aPattern({ writtenBy: 'per@example.no', confirmedBy: [REVIEWER, 'per@example.no'] });
    const nora = aReviewerOrigin({ actor: 'nora@example.no' });

    const renamed = editPattern(pattern, { merchantName: 'SPOTIFY' }, nora, newContext()).pattern;
    const moved = editPattern(pattern, { accountCode: '6550' }, nora, newContext()).pattern;
    const unverified = editPattern(pattern, { verified: false }, nora, newContext()).pattern;

    expect(renamed).toMatchObject({
      writtenBy: 'per@example.no',
      lastChangedBy: 'nora@example.no',
      confirmedBy: ['nora@example.no', REVIEWER],
    });
    expect(moved).toMatchObject({ lastChangedBy: 'nora@example.no', confirmedBy: ['nora@example.no'] });
    expect(unverified).toMatchObject({ lastChangedBy: 'nora@example.no', confirmedBy: [] });
    expect(editPattern(unverified, { verified: true }, aReviewerOrigin(), newContext()).pattern).toMatchObject({
      lastChangedBy: REVIEWER,
      confirmedBy: [REVIEWER],
    });
  });

  it('retires a pattern once, with a PatternRetired event', () => {
    const ctx = newContext();
    const pattern = aPattern({ version: 2 });

    const { pattern: retired, events } = retirePattern(pattern, aReviewerOrigin(), ctx);

    expect(retired.retiredAt).toEqual(ctx.clock.now());
    expect(events[0]).toMatchObject({ type: 'PatternRetired', status: null, correlationId: pattern.id, sequence: 3 });
    expect(() => retirePattern(retired, aReviewerOrigin(), ctx)).toThrow(InvalidTransition);
    expect(() => editPattern(retired, { accountCode: '6550' }, aReviewerOrigin(), ctx)).toThrow(InvalidTransition);
  });
});

describe('observing executed auto-approvals', () => {
  const executed = (overrides = {}) => ({
    ...aProposal('EXECUTED', { details: { amount: 12900 } }),
    autoApproved: true,
    approvedBy: null,
    ...overrides,
  });

  it('adds the amount as one more observation, keeps the approvals, and names the proposal', () => {
    const ctx = newContext();
    const pattern = aPattern({ approvals: 1, amounts: [11900], version: 3 });
    const proposal = executed();

    const { pattern: observed, events } = observeExecutedAutoApproval(pattern, proposal, anOrigin(), ctx);

    expect(observed).toMatchObject({
      approvals: 1,
      amountStats: { count: 2, min: 11900, max: 12900 },
      version: 4,
      confirmedBy: pattern.confirmedBy,
      writtenBy: null,
      lastChangedBy: null,
    });
    expect(events).toEqual([
      expect.objectContaining({
        type: 'PatternSaved',
        correlationId: pattern.id,
        sequence: 4,
        proposalId: proposal.id,
        actor: SUBMITTER,
        data: expect.objectContaining({ cause: 'auto_approval_executed' }),
      }),
    ]);
  });

  it.each([
    ['not executed', { status: 'APPROVED' }],
    ['approved by a reviewer (already observed at the approval)', { autoApproved: false, approvedBy: REVIEWER }],
    ['rejected', { status: 'REJECTED' }],
  ])('refuses a proposal %s', (_label, overrides) => {
    expect(() => observeExecutedAutoApproval(aPattern(), executed(overrides), anOrigin(), newContext())).toThrow(
      InvalidTransition,
    );
  });

  it('refuses a pattern of another account or a retired one', () => {
    for (const pattern of [aPattern({ accountCode: '6300' }), aPattern({ retiredAt: new Date() })]) {
      expect(() => observeExecutedAutoApproval(pattern, executed(), anOrigin(), newContext())).toThrow(
        InvalidTransition,
      );
    }
  });
});
