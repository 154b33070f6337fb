import fc from 'fast-check';
import { aMerchantAndVariant, aMerchantVariant, aPattern, REVIEWER, SUBMITTER } from '@app/testing';
import { isAmountOutlier } from '../pattern/amount-stats';
import { Pattern } from '../pattern/pattern';
import {
  AutoApprovalPolicy,
  ConfidenceEngine,
  ScoringInput,
  SIMILAR_NAME_MAX_SCORE,
  roundScore,
  scoreProposal,
} from './confidence-engine';
import { normalizeMerchant } from './normalize-merchant';
import { routeFor } from './route';

const engine = new ConfidenceEngine();
/** No limit: the tests of the other rules are not about it. */
const NO_LIMIT: AutoApprovalPolicy = { autoApproveMaxAmount: null };
const score = (proposal: ScoringInput, candidates: readonly Pattern[], policy: AutoApprovalPolicy = NO_LIMIT) =>
  engine.score(proposal, candidates, policy);

/** Spotify, NOK 119.00, 6540, 25 %, submitted by the SUBMITTER: what the default aPattern() has learnt. */
function input(overrides: Partial<ScoringInput> = {}): ScoringInput {
  return {
    merchant: 'Spotify AB',
    accountCode: '6540',
    vatRate: '25',
    amount: 11900,
    currency: 'NOK',
    submittedBy: SUBMITTER,
    ...overrides,
  };
}

describe('ConfidenceEngine', () => {
  describe('unknown merchant', () => {
    it('scores exactly 0.0 with no candidate, and says why', () => {
      const result = score(input(), []);

      expect(result.score).toBe(0);
      expect(result.route).toBe('review_required');
      expect(result.reasons).toEqual(['unknown merchant: no pattern for "spotify"']);
      expect(result.patternId).toBeNull();
    });

    it('scores 0.0 when the store’s candidates are not even similar', () => {
      const result = score(input({ merchant: 'Telia' }), [aPattern({ merchantName: 'Telenor' })]);

      expect(result.score).toBe(0);
      expect(result.reasons[1]).toMatch(/closest pattern "telenor" is not similar enough/);
    });

    it('ignores retired patterns', () => {
      const result = score(input(), [aPattern({ retiredAt: new Date('2026-01-01T00:00:00Z') })]);

      expect(result.score).toBe(0);
    });
  });

  describe('known merchant after normalisation', () => {
    it.each(['SPOTIFY AB', 'Spotify  ab.', 'VIPPS*Spotify *1234', 'PAYPAL *SPOTIFY', 'spotify'])(
      'auto-approves %p with the account and VAT of a verified pattern',
      (merchant) => {
        const result = score(input({ merchant }), [aPattern({ approvals: 14 })]);

        expect(result.score).toBeGreaterThanOrEqual(0.9);
        expect(result.route).toBe('auto_approve');
        expect(result.reasons).toEqual(['exact merchant match: spotify', 'account and VAT agree with 14 approvals']);
      },
    );

    it('auto-approves after a single approval: the next item from that merchant is auto-approved', () => {
      const result = score(input(), [aPattern({ approvals: 1 })]);

      expect(result.score).toBeGreaterThanOrEqual(0.9);
      expect(result.reasons).toContain('account and VAT agree with 1 approval');
    });

    it('puts an accountant’s verified rule without approvals exactly on the 0.9 boundary, which auto-approves', () => {
      const result = score(input(), [aPattern({ approvals: 0, amounts: [] })]);

      expect(result.score).toBe(0.9);
      expect(result.route).toBe('auto_approve');
    });

    it('compares VAT rates by value ("25.00" agrees with "25")', () => {
      expect(score(input({ vatRate: '25.00' }), [aPattern()]).route).toBe('auto_approve');
    });

    it('does not auto-approve from an unverified pattern', () => {
      const result = score(input(), [aPattern({ verified: false, approvals: 50 })]);

      expect(result.score).toBeLessThan(0.9);
      expect(result.score).toBeGreaterThanOrEqual(0.7);
      expect(result.reasons).toContain(
        'the pattern is not verified yet: a reviewer must confirm it before it auto-approves',
      );
    });

    it('names the pattern it rests on', () => {
      const pattern = aPattern();
      expect(score(input(), [pattern]).patternId).toBe(pattern.id);
    });
  });

  describe('contradictions', () => {
    it('scores below 0.7 when the account code contradicts the pattern', () => {
      const result = score(input({ accountCode: '6300' }), [aPattern({ approvals: 30 })]);

      expect(result.score).toBeLessThan(0.7);
      expect(result.route).toBe('review_required');
      expect(result.reasons[1]).toMatch(/account code 6300 contradicts the pattern's 6540/);
    });

    it('scores below 0.7 when the VAT rate contradicts the pattern', () => {
      const result = score(input({ vatRate: '15' }), [aPattern({ approvals: 30 })]);

      expect(result.score).toBeLessThan(0.7);
      expect(result.reasons[1]).toMatch(/VAT rate 15% contradicts the pattern's 25%/);
    });

    it('never auto-approves a merchant whose history maps to more than one account', () => {
      const candidates = [aPattern({ approvals: 1000 }), aPattern({ accountCode: '6300', approvals: 1 })];

      const result = score(input(), candidates);

      expect(result.score).toBeLessThan(0.9);
      expect(result.reasons.join(' ')).toMatch(/maps to 2 account\/VAT combinations/);
    });

    it('never auto-approves a merchant whose history has more than one VAT rate', () => {
      const candidates = [aPattern({ approvals: 40 }), aPattern({ vatRate: '15', approvals: 2 })];

      expect(score(input(), candidates).score).toBeLessThan(0.9);
    });
  });

  describe('amounts', () => {
    const spotify = () => aPattern({ approvals: 12, amounts: [11900, 11900, 11900, 12900] });

    it.each([
      ['a misread decimal point (×10)', 119000],
      ['a misread decimal point (÷10)', 1190],
      ['a wildly different amount', 5_000_000],
    ])('never auto-approves %s once the pattern has a few observations', (_label, amount) => {
      const result = score(input({ amount }), [spotify()]);

      expect(result.score).toBeLessThan(0.9);
      expect(result.reasons.join(' ')).toMatch(/far outside the usual range 119\.00–129\.00/);
    });

    it.each([11900, 12900, 13900, 10500])('auto-approves a usual amount (%d øre)', (amount) => {
      expect(score(input({ amount }), [spotify()]).route).toBe('auto_approve');
    });

    it.each([
      ['×10', 119000],
      ['÷10', 1190],
      ['×100', 1190000],
    ])('never auto-approves %s of the single amount one approval saw', (_label, amount) => {
      const result = score(input({ amount }), [aPattern({ approvals: 1, amounts: [11900] })]);

      expect(result.score).toBeLessThan(0.9);
      expect(result.route).not.toBe('auto_approve');
      expect(result.reasons).toContain(
        `amount ${(amount / 100).toFixed(2)} is far outside the only amount seen, 119.00 (more than 4 times off, 1 observation): never auto-approved`,
      );
    });

    it('names the constant amount of a subscription it departs from', () => {
      const result = score(input({ amount: 119000 }), [aPattern({ approvals: 3 })]);

      expect(result.reasons).toContain(
        'amount 1190.00 is far outside the amount seen each time, 119.00 (mean 119.00, 3 observations): never auto-approved',
      );
    });

    it('auto-approves an ordinary variation of the single amount seen', () => {
      expect(score(input({ amount: 23800 }), [aPattern({ approvals: 1, amounts: [11900] })]).route).toBe(
        'auto_approve',
      );
    });

    it('judges no amount of a rule that has seen none (the limit covers it)', () => {
      expect(score(input({ amount: 119000 }), [aPattern({ approvals: 0, amounts: [] })]).route).toBe('auto_approve');
    });
  });

  describe('similar names', () => {
    it.each([
      ['Uber Eats', 'Uber'],
      ['Uber', 'Uber Eats'],
      ['Telia', 'Telenor'],
      ['Telenor', 'Telia'],
      ["Applebee's", 'Apple'],
      ['Apple', "Applebee's"],
      ['Rema 1000 Storo', 'Rema 1000 Majorstuen'],
    ])('never auto-approves %p from a pattern of %p, however many approvals', (merchant, patternName) => {
      const result = score(input({ merchant }), [aPattern({ merchantName: patternName, approvals: 100_000 })]);

      expect(result.score).toBeLessThan(0.9);
      expect(result.route).not.toBe('auto_approve');
    });

    it('recommends review (0.7–0.9) for a similar name with agreeing account and VAT', () => {
      const result = score(input({ merchant: 'Uber Eats' }), [aPattern({ merchantName: 'Uber', approvals: 20 })]);

      expect(result.score).toBeGreaterThanOrEqual(0.7);
      expect(result.score).toBeLessThan(0.9);
      expect(result.route).toBe('review_recommended');
      expect(result.reasons[0]).toMatch(
        /^similar merchant name: "uber eats" resembles "uber" \(similarity 0\.\d\d\); a similar name is never auto-approved$/,
      );
    });

    it('requires review for a similar name whose account differs', () => {
      const result = score(input({ merchant: 'Uber Eats', accountCode: '6800' }), [
        aPattern({ merchantName: 'Uber', accountCode: '7140' }),
      ]);

      expect(result.score).toBeLessThan(0.7);
    });

    it('prefers the exact key over a similar one', () => {
      const exact = aPattern({ merchantName: 'Uber', accountCode: '7140', approvals: 5 });
      const similar = aPattern({ merchantName: 'Uber Eats', accountCode: '6800', approvals: 500 });

      const result = score(input({ merchant: 'UBER', accountCode: '7140' }), [similar, exact]);

      expect(result.route).toBe('auto_approve');
      expect(result.patternId).toBe(exact.id);
    });
  });

  describe('the auto-approval limit', () => {
    const limit = (nok: number): AutoApprovalPolicy => ({ autoApproveMaxAmount: nok * 100 });

    it('holds back an auto-approval above the limit, whatever the score, and says why', () => {
      const pattern = aPattern({ approvals: 500, amounts: [1_200_000, 1_250_000, 1_190_000] });

      const result = score(input({ amount: 1_200_000 }), [pattern], limit(10_000));

      expect(result.score).toBe(0.85);
      expect(result.route).toBe('review_recommended');
      expect(result.reasons).toContain(
        "amount NOK 12000.00 is above the company's auto-approval limit of NOK 10000.00: a person must approve it",
      );
    });

    it('auto-approves exactly at the limit', () => {
      const pattern = aPattern({ approvals: 5, amounts: [1_000_000] });

      expect(score(input({ amount: 1_000_000 }), [pattern], limit(10_000)).route).toBe('auto_approve');
    });

    it('compares a foreign amount by its amount in NOK', () => {
      const pattern = aPattern({ approvals: 5, amounts: [1199] });
      const usd = input({ currency: 'USD', amount: 1199 });

      expect(score({ ...usd, amountNok: 12_900 }, [pattern], limit(10_000)).route).toBe('auto_approve');
      expect(score({ ...usd, amountNok: 1_290_000 }, [pattern], limit(10_000)).route).toBe('review_recommended');
    });

    it('holds back a foreign amount without an amount in NOK: it cannot be compared', () => {
      const result = score(input({ currency: 'EUR', amount: 1199 }), [aPattern({ amounts: [1199] })], limit(10_000));

      expect(result.route).toBe('review_recommended');
      expect(result.reasons).toContain(
        'the amount is in EUR without an amount in NOK, so it cannot be held against the auto-approval limit of NOK 10000.00: a person must approve it',
      );
    });

    it('has no say without a limit, and adds no reason to a proposal that goes to review anyway', () => {
      const big = input({ amount: 50_000_000, currency: 'EUR' });
      expect(score(big, [aPattern({ amounts: [50_000_000] })], NO_LIMIT).route).toBe('auto_approve');

      const unknown = score(big, [], limit(10));
      expect(unknown.reasons.join(' ')).not.toMatch(/limit/);
    });
  });

  describe('separation of duties', () => {
    const ACCOUNTANT = 'ola@example.no';

    it('never auto-approves a proposal from a pattern its submitter wrote, and says why', () => {
      const own = aPattern({ approvals: 0, amounts: [], writtenBy: ACCOUNTANT, confirmedBy: [ACCOUNTANT] });

      const result = score(input({ submittedBy: ACCOUNTANT, amount: 9_900_000 }), [own]);

      expect(result.score).toBe(0.85);
      expect(result.route).toBe('review_recommended');
      expect(result.reasons).toContain(
        'separation of duties: ola@example.no wrote the pattern and submitted this proposal, so a second person must approve it',
      );
    });

    it('compares people by email, whatever the case', () => {
      const own = aPattern({ writtenBy: 'Ola@Example.no', confirmedBy: ['kari@example.no'] });

      expect(score(input({ submittedBy: ' ola@example.NO ' }), [own]).route).not.toBe('auto_approve');
    });

    it('holds although someone else confirmed it since: the writer never relies on their own rule', () => {
      const own = aPattern({ approvals: 9, writtenBy: ACCOUNTANT, confirmedBy: [REVIEWER, ACCOUNTANT] });

      expect(score(input({ submittedBy: ACCOUNTANT }), [own]).route).toBe('review_recommended');
    });

    it('never auto-approves from a pattern its submitter last changed', () => {
      const changed = aPattern({ writtenBy: REVIEWER, lastChangedBy: ACCOUNTANT, confirmedBy: [ACCOUNTANT, REVIEWER] });

      const result = score(input({ submittedBy: ACCOUNTANT }), [changed]);

      expect(result.route).toBe('review_recommended');
      expect(result.reasons).toContain(
        'separation of duties: ola@example.no last changed the pattern and submitted this proposal, so a second person must approve it',
      );
    });

    it('needs a confirmation by someone other than the submitter', () => {
      const onlyMine = aPattern({ approvals: 4, confirmedBy: [ACCOUNTANT] });

      const result = score(input({ submittedBy: ACCOUNTANT }), [onlyMine]);

      expect(result.route).toBe('review_recommended');
      expect(result.reasons).toContain(
        'separation of duties: only ola@example.no, who submitted this proposal, has confirmed the pattern, so a second person must approve it',
      );
    });

    it('does not trust a verified pattern without any recorded confirmation', () => {
      const result = score(input(), [aPattern({ confirmedBy: [] })]);

      expect(result.route).toBe('review_recommended');
      expect(result.reasons).toContain(
        'separation of duties: no one is recorded as having confirmed the pattern as it stands, so a second person must approve it',
      );
    });

    it('auto-approves for anyone else: the rule an accountant wrote, a pattern a reviewer confirmed', () => {
      const written = aPattern({ approvals: 0, amounts: [], writtenBy: ACCOUNTANT, confirmedBy: [ACCOUNTANT] });
      const learnt = aPattern({ approvals: 1, confirmedBy: [REVIEWER] });

      expect(score(input({ submittedBy: REVIEWER }), [written]).route).toBe('auto_approve');
      expect(score(input({ submittedBy: ACCOUNTANT }), [learnt]).route).toBe('auto_approve');
    });

    it('gives both reasons when both the limit and separation of duties hold it back', () => {
      const own = aPattern({ approvals: 0, amounts: [], writtenBy: ACCOUNTANT, confirmedBy: [ACCOUNTANT] });

      const result = score(input({ submittedBy: ACCOUNTANT, amount: 9_900_000 }), [own], {
        autoApproveMaxAmount: 1_000_000,
      });

      expect(result.reasons.filter((reason) => /limit|separation of duties/.test(reason))).toHaveLength(2);
    });
  });

  describe('rounding and routing', () => {
    it.each([
      [0.9, 'auto_approve'],
      [0.95, 'auto_approve'],
      [1, 'auto_approve'],
      [0.89, 'review_recommended'],
      [0.7, 'review_recommended'],
      [0.69, 'review_required'],
      [0, 'review_required'],
    ])('routes %d to %s', (score, route) => {
      expect(routeFor(score)).toBe(route);
    });

    it.each([
      [0.945, 0.95],
      [0.9449, 0.94],
      [-0.2, 0],
      [1.7, 1],
      [0.899999, 0.9],
    ])('rounds %d to %d', (raw, rounded) => {
      expect(roundScore(raw)).toBe(rounded);
    });
  });
});

describe('ConfidenceEngine: proposals of several lines', () => {
  const confirmed = () =>
    aPattern({ approvals: 5, verified: true, confirmedBy: [REVIEWER], amounts: [11900, 11900, 11900] });

  it('auto-approves several lines when every line has the account and VAT rate the approvals show', () => {
    const result = score(
      input({
        lines: [
          { accountCode: '6540', vatRate: '25' },
          { accountCode: '6540', vatRate: '25.00' },
        ],
      }),
      [confirmed()],
    );

    expect(result.route).toBe('auto_approve');
  });

  it('holds a line the approvals have not shown for review, saying which', () => {
    const result = score(
      input({
        lines: [
          { accountCode: '6540', vatRate: '25' },
          { accountCode: '6860', vatRate: '0' },
        ],
      }),
      [confirmed()],
    );

    expect(result.route).not.toBe('auto_approve');
    expect(result.score).toBeLessThanOrEqual(0.85);
    expect(result.reasons).toContainEqual(
      expect.stringContaining("line 2 (account 6860, VAT 0%) is not what the merchant's approvals show"),
    );
  });

  it('never auto-approves a proposal one of whose lines no agreeing pattern has (property)', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.record({ accountCode: fc.constantFrom('6540', '6860', '7140'), vatRate: fc.constantFrom('25', '0') }),
          {
            minLength: 2,
            maxLength: 5,
          },
        ),
        (lines) => {
          const result = score(input({ lines }), [confirmed()]);
          const allAgree = lines.every((line) => line.accountCode === '6540' && line.vatRate === '25');
          expect(result.route === 'auto_approve').toBe(allAgree);
        },
      ),
    );
  });
});

describe('ConfidenceEngine: the VAT treatment and supplier a pattern learnt', () => {
  const SUPPLIER = '923609016';
  const OTHER_SUPPLIER = '974760673';
  const learnt = (fields: Partial<Pattern> = {}) =>
    aPattern({ approvals: 12, amounts: [11900, 11900, 11900], ...fields });
  const invoice = (organizationNumber: string, fields: Partial<ScoringInput> = {}) =>
    input({ vatTreatment: 'domestic', supplier: { organizationNumber }, ...fields });

  it('auto-approves when the treatment and the supplier agree with what the approvals showed', () => {
    const expense = score(input({ vatTreatment: 'domestic' }), [learnt()]);
    const supplierInvoice = score(invoice(SUPPLIER), [learnt({ supplierOrganizationNumber: SUPPLIER })]);
    const reverseCharge = score(input({ vatTreatment: 'reverse_charge', currency: 'USD', amountNok: 11900 }), [
      learnt({ vatTreatment: 'reverse_charge' }),
    ]);

    expect([expense.route, supplierInvoice.route, reverseCharge.route]).toEqual([
      'auto_approve',
      'auto_approve',
      'auto_approve',
    ]);
    expect(supplierInvoice.reasons.join(' ')).not.toMatch(/supplier|treatment/);
  });

  it('holds a proposal whose VAT treatment differs from the learnt one, naming both and the approvals', () => {
    const result = score(input({ vatTreatment: 'reverse_charge', currency: 'USD', amountNok: 11900 }), [learnt()]);

    expect(result.route).toBe('review_recommended');
    expect(result.score).toBe(0.85);
    expect(result.reasons).toContain(
      "VAT treatment reverse_charge differs from the merchant's domestic (12 approvals): a person must approve it",
    );
  });

  it('holds a domestic proposal of a merchant whose approvals showed another treatment', () => {
    const result = score(input({ vatTreatment: 'domestic' }), [learnt({ vatTreatment: 'foreign_no_deduction' })]);

    expect(result.route).not.toBe('auto_approve');
    expect(result.reasons.join(' ')).toContain(
      "VAT treatment domestic differs from the merchant's foreign_no_deduction",
    );
  });

  it('holds a supplier invoice from another organisation than the learnt one, naming both', () => {
    const result = score(invoice(OTHER_SUPPLIER), [learnt({ supplierOrganizationNumber: SUPPLIER })]);

    expect(result.route).toBe('review_recommended');
    expect(result.reasons).toContain(
      `supplier ${OTHER_SUPPLIER} differs from the merchant's ${SUPPLIER}: a person must approve it`,
    );
  });

  it('names both differences when the treatment and the supplier differ', () => {
    const result = score(
      invoice(OTHER_SUPPLIER, { vatTreatment: 'foreign_no_deduction', currency: 'EUR', amountNok: 11900 }),
      [learnt({ supplierOrganizationNumber: SUPPLIER })],
    );

    expect(result.reasons.filter((reason) => /differs from the merchant's/.test(reason))).toHaveLength(2);
  });

  describe('a pattern that has not learnt them (older patterns, an accountant’s rule without them)', () => {
    const legacy = () => learnt({ vatTreatment: null, supplierOrganizationNumber: null });

    it('reads an unknown treatment as domestic: a domestic expense still auto-approves', () => {
      expect(score(input({ vatTreatment: 'domestic' }), [legacy()]).route).toBe('auto_approve');
      expect(score(input(), [legacy()]).route).toBe('auto_approve');
    });

    it('holds another treatment until an approval has shown it', () => {
      const result = score(input({ vatTreatment: 'reverse_charge', currency: 'USD', amountNok: 11900 }), [legacy()]);

      expect(result.route).toBe('review_recommended');
      expect(result.reasons.join(' ')).toContain(
        "VAT treatment reverse_charge has not been shown by the merchant's approvals",
      );
    });

    it('holds a supplier invoice whose supplier the pattern does not know', () => {
      const result = score(invoice(SUPPLIER), [legacy()]);

      expect(result.route).toBe('review_recommended');
      expect(result.reasons).toContain(
        `supplier ${SUPPLIER} is not known for the merchant: none of its approvals was a supplier invoice: a person must approve it`,
      );
    });

    it('does not check the supplier of an expense, which names none', () => {
      expect(score(input({ vatTreatment: 'domestic', supplier: null }), [legacy()]).route).toBe('auto_approve');
    });
  });

  it('never raises a score: a difference only caps it, and an agreeing proposal scores as without the fields', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('domestic', 'foreign_no_deduction', 'reverse_charge', null),
        fc.constantFrom('domestic', 'foreign_no_deduction', 'reverse_charge'),
        fc.constantFrom(SUPPLIER, OTHER_SUPPLIER, null),
        fc.constantFrom(SUPPLIER, OTHER_SUPPLIER, null),
        fc.integer({ min: 0, max: 30 }),
        (known, treatment, knownSupplier, supplier, approvals) => {
          const pattern = learnt({ vatTreatment: known, supplierOrganizationNumber: knownSupplier, approvals });
          const plain = score(input(), [pattern]);
          const result = score(
            input({ vatTreatment: treatment, supplier: supplier === null ? null : { organizationNumber: supplier } }),
            [pattern],
          );
          const agrees = (known ?? 'domestic') === treatment && (supplier === null || supplier === knownSupplier);
          if (agrees) expect(result).toEqual(plain);
          else expect(result.score).toBe(Math.min(plain.score, 0.85));
        },
      ),
    );
  });
});

describe('ConfidenceEngine properties', () => {
  const NAMES = [
    'Spotify AB',
    'Uber',
    'Uber Eats',
    'Telenor',
    'Telia',
    'Apple',
    "Applebee's",
    'Rema 1000',
    'Rema 1000 Storo',
    'Kiwi 345',
    'Netflix',
    'Netto',
  ];
  const name = fc.oneof(fc.constantFrom(...NAMES), fc.stringMatching(/^[A-Za-z][A-Za-z0-9 '&.*-]{0,20}$/));
  const account = fc.constantFrom('6540', '6300', '7140');
  const vat = fc.constantFrom('25', '15', '12', '0');
  const amount = fc.integer({ min: 1, max: 10_000_000 });
  /** People, one of them also in another case: the engine compares emails case-insensitively. */
  const person = fc.constantFrom(SUBMITTER, REVIEWER, 'per@example.no', SUBMITTER.toUpperCase());
  const scoringInput = fc.record(
    {
      merchant: name,
      accountCode: account,
      vatRate: vat,
      amount,
      currency: fc.constantFrom('NOK', 'NOK', 'EUR'),
      amountNok: amount,
      submittedBy: person,
    },
    { requiredKeys: ['merchant', 'accountCode', 'vatRate', 'amount', 'currency', 'submittedBy'] },
  );
  const policy = fc.record({ autoApproveMaxAmount: fc.option(amount, { nil: null }) });
  let idCounter = 0;
  const pattern = fc
    .record({
      merchantName: name,
      accountCode: account,
      vatRate: vat,
      approvals: fc.integer({ min: 0, max: 500 }),
      verified: fc.boolean(),
      amounts: fc.array(amount, { maxLength: 6 }),
      retired: fc.boolean(),
      writtenBy: fc.option(person, { nil: null }),
      lastChangedBy: fc.option(person, { nil: null }),
      confirmedBy: fc.uniqueArray(person, { maxLength: 2 }),
    })
    .map(({ retired, confirmedBy, ...fields }) =>
      aPattern({
        ...fields,
        confirmedBy: fields.verified ? confirmedBy : [],
        id: `p-${String(++idCounter).padStart(8, '0')}`,
        retiredAt: retired ? new Date('2026-01-01T00:00:00Z') : null,
      }),
    );
  const patterns = fc.array(pattern, { maxLength: 6 });

  it('returns a score in [0, 1] with 2 decimals, the matching route, and reasons', () => {
    fc.assert(
      fc.property(scoringInput, patterns, policy, (proposal, candidates, rules) => {
        const { score, route, reasons } = scoreProposal(proposal, candidates, rules);
        expect(score).toBeGreaterThanOrEqual(0);
        expect(score).toBeLessThanOrEqual(1);
        expect(Math.round(score * 100) / 100).toBe(score);
        expect(route).toBe(routeFor(score));
        expect(reasons.length).toBeGreaterThan(0);
        expect(reasons.every((reason) => reason.length > 0)).toBe(true);
      }),
    );
  });

  it('is deterministic and ignores the order of candidates', () => {
    fc.assert(
      fc.property(scoringInput, patterns, policy, fc.integer(), (proposal, candidates, rules, seed) => {
        const shuffled = [...candidates].sort(
          (a, b) => ((a.id.charCodeAt(a.id.length - 1) * seed) % 7) - ((b.id.charCodeAt(b.id.length - 1) * seed) % 7),
        );
        expect(scoreProposal(proposal, shuffled, rules)).toEqual(scoreProposal(proposal, candidates, rules));
        expect(scoreProposal(proposal, candidates, rules)).toEqual(scoreProposal(proposal, candidates, rules));
      }),
    );
  });

  it('scores an unknown merchant (no candidate) exactly 0.0', () => {
    fc.assert(
      fc.property(scoringInput, policy, (proposal, rules) => {
        expect(scoreProposal(proposal, [], rules).score).toBe(0);
      }),
    );
  });

  it('never auto-approves from patterns of a merely similar (different) merchant key', () => {
    fc.assert(
      fc.property(scoringInput, patterns, policy, (proposal, candidates, rules) => {
        const key = normalizeMerchant(proposal.merchant);
        const others = candidates.filter((p) => p.merchantKey !== key);
        expect(scoreProposal(proposal, others, rules).score).toBeLessThan(0.9);
      }),
    );
    expect(SIMILAR_NAME_MAX_SCORE).toBeLessThan(0.9);
  });

  it('scores from the exact key alone when an active pattern has it: look-alikes change nothing', () => {
    // PatternStore.findCandidates returns no look-alikes when the exact key has a pattern.
    fc.assert(
      fc.property(
        scoringInput,
        fc.array(pattern, { minLength: 1, maxLength: 4 }),
        patterns,
        policy,
        (proposal, sameKey, candidates, rules) => {
          const key = normalizeMerchant(proposal.merchant);
          fc.pre(key !== '');
          const exact = sameKey.map((p, i) => ({ ...p, merchantKey: key, retiredAt: i === 0 ? null : p.retiredAt }));
          const lookAlikes = candidates.filter((p) => p.merchantKey !== key);
          expect(scoreProposal(proposal, [...exact, ...lookAlikes], rules)).toEqual(
            scoreProposal(
              proposal,
              exact.filter((p) => p.retiredAt === null),
              rules,
            ),
          );
        },
      ),
    );
  });

  it('auto-approves only on an exact key with an agreeing verified pattern that passes every rule', () => {
    fc.assert(
      fc.property(scoringInput, patterns, policy, (proposal, candidates, rules) => {
        const result = scoreProposal(proposal, candidates, rules);
        if (result.route !== 'auto_approve') return;
        const key = normalizeMerchant(proposal.merchant);
        const support = candidates.filter(
          (p) =>
            p.retiredAt === null &&
            p.merchantKey === key &&
            p.accountCode === proposal.accountCode &&
            p.vatRate === proposal.vatRate,
        );
        const me = (actor: string | null) => actor?.toLowerCase() === proposal.submittedBy.toLowerCase();
        expect(
          support.some(
            (p) => p.verified && !me(p.writtenBy) && !me(p.lastChangedBy) && p.confirmedBy.some((c) => !me(c)),
          ),
        ).toBe(true);
        expect(support.some((p) => !isAmountOutlier(p.amountStats, proposal.amount))).toBe(true);
        const limit = rules.autoApproveMaxAmount;
        if (limit !== null) {
          const nok = proposal.currency === 'NOK' ? proposal.amount : proposal.amountNok;
          expect(nok).toBeDefined();
          expect(nok!).toBeLessThanOrEqual(limit);
        }
      }),
    );
  });

  it('never auto-approves × 10 or ÷ 10 of everything a pattern has seen, from its first observation on', () => {
    fc.assert(
      fc.property(
        scoringInput,
        fc.array(amount, { minLength: 1, maxLength: 4 }),
        fc.nat(1000),
        fc.boolean(),
        (proposal, seen, approvals, up) => {
          const pattern = aPattern({
            merchantName: proposal.merchant,
            accountCode: proposal.accountCode,
            vatRate: proposal.vatRate,
            approvals,
            amounts: seen,
            confirmedBy: ['someone.else@example.no'],
          });
          const far = up ? Math.max(...seen) * 10 : Math.floor(Math.min(...seen) / 10);
          fc.pre(far >= 1);
          const result = scoreProposal({ ...proposal, amount: far }, [pattern], NO_LIMIT);
          expect(result.score).toBeLessThan(0.9);
          expect(result.route).not.toBe('auto_approve');
        },
      ),
    );
  });

  it('never auto-approves above the limit, nor a foreign amount without its amount in NOK', () => {
    fc.assert(
      fc.property(scoringInput, patterns, amount, (proposal, candidates, limit) => {
        const nok = proposal.currency === 'NOK' ? proposal.amount : proposal.amountNok;
        fc.pre(nok === undefined || nok > limit);
        const result = scoreProposal(proposal, candidates, { autoApproveMaxAmount: limit });
        expect(result.route).not.toBe('auto_approve');
      }),
    );
  });

  it('never auto-approves a proposal from a pattern its submitter wrote, last changed or alone confirmed', () => {
    const role = fc.constantFrom('writtenBy', 'lastChangedBy', 'confirmedBy');
    fc.assert(
      fc.property(scoringInput, patterns, role, fc.boolean(), (proposal, candidates, which, shout) => {
        const submitter = shout ? proposal.submittedBy.toUpperCase() : proposal.submittedBy;
        const own = candidates.map((p) =>
          which === 'confirmedBy' ? { ...p, confirmedBy: p.verified ? [submitter] : [] } : { ...p, [which]: submitter },
        );
        expect(scoreProposal(proposal, own, NO_LIMIT).route).not.toBe('auto_approve');
      }),
    );
  });

  it('does auto-approve a usual amount below the limit from a pattern someone else confirmed', () => {
    fc.assert(
      fc.property(
        scoringInput,
        fc.array(amount, { minLength: 0, maxLength: 4 }),
        fc.nat(1000),
        (proposal, seen, approvals) => {
          const pattern = aPattern({
            merchantName: proposal.merchant,
            accountCode: proposal.accountCode,
            vatRate: proposal.vatRate,
            approvals,
            amounts: seen,
            writtenBy: seen.length === 0 ? 'someone.else@example.no' : null,
            confirmedBy: ['someone.else@example.no', proposal.submittedBy],
          });
          fc.pre(normalizeMerchant(proposal.merchant) !== '');
          const usual = seen.length === 0 ? proposal.amount : seen[0];
          const result = scoreProposal({ ...proposal, amount: usual, currency: 'NOK' }, [pattern], {
            autoApproveMaxAmount: usual,
          });
          expect(result.route).toBe('auto_approve');
        },
      ),
    );
  });

  it('never auto-approves one merchant of a realistic list from the pattern of another, however written', () => {
    fc.assert(
      fc.property(aMerchantAndVariant(), aMerchantAndVariant(), policy, ([a, proposed], [b, learnt], rules) => {
        fc.pre(a !== b);
        const pattern = aPattern({ merchantName: learnt, approvals: 100_000, amounts: [11900] });
        const result = scoreProposal(input({ merchant: proposed }), [pattern], rules);
        expect(result.score).toBeLessThan(0.9);
        expect(result.route).not.toBe('auto_approve');
      }),
      { numRuns: 1000 },
    );
  });

  it('auto-approves every way of writing a merchant from the pattern of another way', () => {
    fc.assert(
      fc.property(
        aMerchantAndVariant().chain(([name, proposed]) => fc.tuple(fc.constant(proposed), aMerchantVariant(name))),
        ([proposed, learnt]) => {
          const pattern = aPattern({ merchantName: learnt, approvals: 3, amounts: [11900] });
          expect(scoreProposal(input({ merchant: proposed }), [pattern], NO_LIMIT).route).toBe('auto_approve');
        },
      ),
      { numRuns: 1000 },
    );
  });

  it('never lowers a score when agreeing approvals grow', () => {
    fc.assert(
      fc.property(
        scoringInput,
        patterns,
        fc.boolean(),
        fc.nat(1000),
        fc.integer({ min: 1, max: 1000 }),
        policy,
        (proposal, candidates, sameKey, start, more, rules) => {
          // One pattern that agrees with the proposal (same key or a look-alike), among arbitrary others.
          const agreeing = aPattern({
            id: 'p-agreeing',
            merchantName: sameKey ? proposal.merchant : `${proposal.merchant} x`,
            accountCode: proposal.accountCode,
            vatRate: proposal.vatRate,
            approvals: start,
            amounts: [11900, 12900, 13900],
          });
          const withApprovals = (approvals: number): Pattern[] => [...candidates, { ...agreeing, approvals }];
          const before = scoreProposal(proposal, withApprovals(start), rules).score;
          const after = scoreProposal(proposal, withApprovals(start + more), rules).score;
          expect(after).toBeGreaterThanOrEqual(before);
        },
      ),
    );
  });
});
