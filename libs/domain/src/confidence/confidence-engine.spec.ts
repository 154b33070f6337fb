import fc from 'fast-check';
import { aPattern } from '@app/testing';
import { Pattern } from '../pattern/pattern';
import { ConfidenceEngine, ScoringInput, SIMILAR_NAME_MAX_SCORE, roundScore, scoreProposal } from './confidence-engine';
import { normalizeMerchant } from './normalize-merchant';
import { routeFor } from './route';

const engine = new ConfidenceEngine();

/** Spotify, 119.00, 6540, 25 %: what the default aPattern() has learnt. */
function input(overrides: Partial<ScoringInput> = {}): ScoringInput {
  return { merchant: 'Spotify AB', accountCode: '6540', vatRate: '25', amount: 11900, ...overrides };
}

describe('ConfidenceEngine', () => {
  describe('unknown merchant', () => {
    it('scores exactly 0.0 with no candidate, and says why', () => {
      const result = engine.score(input(), []);

      expect(result.score).toBe(0);
      expect(result.route).toBe('review_required');
      expect(result.reasons).toEqual(['unknown merchant: no pattern for "spotify"']);
      expect(result.patternId).toBeNull();
    });

    it('scores 0.0 when the store’s candidates are not even similar', () => {
      const result = engine.score(input({ merchant: 'Telia' }), [aPattern({ merchantName: 'Telenor' })]);

      expect(result.score).toBe(0);
      expect(result.reasons[1]).toMatch(/closest pattern "telenor" is not similar enough/);
    });

    it('ignores retired patterns', () => {
      const result = engine.score(input(), [aPattern({ retiredAt: new Date('2026-01-01T00:00:00Z') })]);

      expect(result.score).toBe(0);
    });
  });

  describe('known merchant after normalisation', () => {
    it.each(['SPOTIFY AB', 'Spotify  ab.', 'VIPPS*Spotify *1234', 'PAYPAL *SPOTIFY', 'spotify'])(
      'auto-approves %p with the account and VAT of a verified pattern',
      (merchant) => {
        const result = engine.score(input({ merchant }), [aPattern({ approvals: 14 })]);

        expect(result.score).toBeGreaterThanOrEqual(0.9);
        expect(result.route).toBe('auto_approve');
        expect(result.reasons).toEqual(['exact merchant match: spotify', 'account and VAT agree with 14 approvals']);
      },
    );

    it('auto-approves after a single approval: the next item from that merchant is auto-approved', () => {
      const result = engine.score(input(), [aPattern({ approvals: 1 })]);

      expect(result.score).toBeGreaterThanOrEqual(0.9);
      expect(result.reasons).toContain('account and VAT agree with 1 approval');
    });

    it('puts an accountant’s verified rule without approvals exactly on the 0.9 boundary, which auto-approves', () => {
      const result = engine.score(input(), [aPattern({ approvals: 0, amounts: [] })]);

      expect(result.score).toBe(0.9);
      expect(result.route).toBe('auto_approve');
    });

    it('compares VAT rates by value ("25.00" agrees with "25")', () => {
      expect(engine.score(input({ vatRate: '25.00' }), [aPattern()]).route).toBe('auto_approve');
    });

    it('does not auto-approve from an unverified pattern', () => {
      const result = engine.score(input(), [aPattern({ verified: false, approvals: 50 })]);

      expect(result.score).toBeLessThan(0.9);
      expect(result.score).toBeGreaterThanOrEqual(0.7);
      expect(result.reasons).toContain(
        'the pattern is not verified yet: a reviewer must confirm it before it auto-approves',
      );
    });

    it('names the pattern it rests on', () => {
      const pattern = aPattern();
      expect(engine.score(input(), [pattern]).patternId).toBe(pattern.id);
    });
  });

  describe('contradictions', () => {
    it('scores below 0.7 when the account code contradicts the pattern', () => {
      const result = engine.score(input({ accountCode: '6300' }), [aPattern({ approvals: 30 })]);

      expect(result.score).toBeLessThan(0.7);
      expect(result.route).toBe('review_required');
      expect(result.reasons[1]).toMatch(/account code 6300 contradicts the pattern's 6540/);
    });

    it('scores below 0.7 when the VAT rate contradicts the pattern', () => {
      const result = engine.score(input({ vatRate: '15' }), [aPattern({ approvals: 30 })]);

      expect(result.score).toBeLessThan(0.7);
      expect(result.reasons[1]).toMatch(/VAT rate 15% contradicts the pattern's 25%/);
    });

    it('never auto-approves a merchant whose history maps to more than one account', () => {
      const candidates = [aPattern({ approvals: 1000 }), aPattern({ accountCode: '6300', approvals: 1 })];

      const result = engine.score(input(), candidates);

      expect(result.score).toBeLessThan(0.9);
      expect(result.reasons.join(' ')).toMatch(/maps to 2 account\/VAT combinations/);
    });

    it('never auto-approves a merchant whose history has more than one VAT rate', () => {
      const candidates = [aPattern({ approvals: 40 }), aPattern({ vatRate: '15', approvals: 2 })];

      expect(engine.score(input(), candidates).score).toBeLessThan(0.9);
    });
  });

  describe('amounts', () => {
    const spotify = () => aPattern({ approvals: 12, amounts: [11900, 11900, 11900, 12900] });

    it.each([
      ['a misread decimal point (×10)', 119000],
      ['a misread decimal point (÷10)', 1190],
      ['a wildly different amount', 5_000_000],
    ])('never auto-approves %s once the pattern has a few observations', (_label, amount) => {
      const result = engine.score(input({ amount }), [spotify()]);

      expect(result.score).toBeLessThan(0.9);
      expect(result.reasons.join(' ')).toMatch(/far outside the usual range 119\.00–129\.00/);
    });

    it.each([11900, 12900, 13900, 10500])('auto-approves a usual amount (%d øre)', (amount) => {
      expect(engine.score(input({ amount }), [spotify()]).route).toBe('auto_approve');
    });

    it('does not judge amounts before the pattern has 3 observations', () => {
      const result = engine.score(input({ amount: 119000 }), [aPattern({ approvals: 2, amounts: [11900, 11900] })]);

      expect(result.route).toBe('auto_approve');
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
      const result = engine.score(input({ merchant }), [aPattern({ merchantName: patternName, approvals: 100_000 })]);

      expect(result.score).toBeLessThan(0.9);
      expect(result.route).not.toBe('auto_approve');
    });

    it('recommends review (0.7–0.9) for a similar name with agreeing account and VAT', () => {
      const result = engine.score(input({ merchant: 'Uber Eats' }), [
        aPattern({ merchantName: 'Uber', approvals: 20 }),
      ]);

      expect(result.score).toBeGreaterThanOrEqual(0.7);
      expect(result.score).toBeLessThan(0.9);
      expect(result.route).toBe('review_recommended');
      expect(result.reasons[0]).toMatch(
        /^similar merchant name: "uber eats" resembles "uber" \(similarity 0\.\d\d\); a similar name is never auto-approved$/,
      );
    });

    it('requires review for a similar name whose account differs', () => {
      const result = engine.score(input({ merchant: 'Uber Eats', accountCode: '6800' }), [
        aPattern({ merchantName: 'Uber', accountCode: '7140' }),
      ]);

      expect(result.score).toBeLessThan(0.7);
    });

    it('prefers the exact key over a similar one', () => {
      const exact = aPattern({ merchantName: 'Uber', accountCode: '7140', approvals: 5 });
      const similar = aPattern({ merchantName: 'Uber Eats', accountCode: '6800', approvals: 500 });

      const result = engine.score(input({ merchant: 'UBER', accountCode: '7140' }), [similar, exact]);

      expect(result.route).toBe('auto_approve');
      expect(result.patternId).toBe(exact.id);
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
  const scoringInput = fc.record({ merchant: name, accountCode: account, vatRate: vat, amount });
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
    })
    .map(({ retired, ...fields }) =>
      aPattern({
        ...fields,
        id: `p-${String(++idCounter).padStart(8, '0')}`,
        retiredAt: retired ? new Date('2026-01-01T00:00:00Z') : null,
      }),
    );
  const patterns = fc.array(pattern, { maxLength: 6 });

  it('returns a score in [0, 1] with 2 decimals, the matching route, and reasons', () => {
    fc.assert(
      fc.property(scoringInput, patterns, (proposal, candidates) => {
        const { score, route, reasons } = scoreProposal(proposal, candidates);
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
      fc.property(scoringInput, patterns, fc.integer(), (proposal, candidates, seed) => {
        const shuffled = [...candidates].sort(
          (a, b) => ((a.id.charCodeAt(a.id.length - 1) * seed) % 7) - ((b.id.charCodeAt(b.id.length - 1) * seed) % 7),
        );
        expect(scoreProposal(proposal, shuffled)).toEqual(scoreProposal(proposal, candidates));
        expect(scoreProposal(proposal, candidates)).toEqual(scoreProposal(proposal, candidates));
      }),
    );
  });

  it('scores an unknown merchant (no candidate) exactly 0.0', () => {
    fc.assert(
      fc.property(scoringInput, (proposal) => {
        expect(scoreProposal(proposal, []).score).toBe(0);
      }),
    );
  });

  it('never auto-approves from patterns of a merely similar (different) merchant key', () => {
    fc.assert(
      fc.property(scoringInput, patterns, (proposal, candidates) => {
        const key = normalizeMerchant(proposal.merchant);
        const others = candidates.filter((p) => p.merchantKey !== key);
        expect(scoreProposal(proposal, others).score).toBeLessThan(0.9);
      }),
    );
    expect(SIMILAR_NAME_MAX_SCORE).toBeLessThan(0.9);
  });

  it('auto-approves only on an exact key with an agreeing verified pattern', () => {
    fc.assert(
      fc.property(scoringInput, patterns, (proposal, candidates) => {
        const result = scoreProposal(proposal, candidates);
        if (result.route !== 'auto_approve') return;
        const key = normalizeMerchant(proposal.merchant);
        const support = candidates.filter(
          (p) =>
            p.retiredAt === null &&
            p.merchantKey === key &&
            p.accountCode === proposal.accountCode &&
            p.vatRate === proposal.vatRate,
        );
        expect(support.some((p) => p.verified)).toBe(true);
      }),
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
        (proposal, candidates, sameKey, start, more) => {
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
          const before = scoreProposal(proposal, withApprovals(start)).score;
          const after = scoreProposal(proposal, withApprovals(start + more)).score;
          expect(after).toBeGreaterThanOrEqual(before);
        },
      ),
    );
  });
});
