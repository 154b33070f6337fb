import fc from 'fast-check';
import { confirmSuggestion, suggestPattern } from '../pattern/pattern-lifecycle';
import { scoreProposal } from '../confidence/confidence-engine';
import type { Pattern } from '../pattern/pattern';
import {
  deriveSuggestions,
  DOMINANT_SHARE,
  historyStart,
  MIN_BOOKINGS_FOR_SUGGESTION,
  type HistoricalBooking,
} from './booking-history';

let n = 0;
const booking = (overrides: Partial<HistoricalBooking> = {}): HistoricalBooking => ({
  provider: 'tripletex',
  bookingId: `b-${++n}`,
  kind: 'supplier_invoice',
  date: '2026-01-10',
  merchant: 'Telenor Norge AS',
  accountCode: '6900',
  vatRate: '25',
  amount: 64900,
  ...overrides,
});

const monthly = (count: number, overrides: Partial<HistoricalBooking> = {}) =>
  Array.from({ length: count }, (_, i) =>
    booking({ date: `2026-${String(i + 1).padStart(2, '0')}-10`, amount: 60000 + i * 1000, ...overrides }),
  );

const ctx = () => {
  let id = 0;
  return { clock: { now: () => new Date('2026-11-20T10:00:00Z') }, ids: { next: () => `id-${++id}` } };
};
const origin = { actor: 'onboarding', channel: 'web' as const, provider: 'tripletex' };

describe('deriveSuggestions', () => {
  it('suggests the account and VAT rate of a recurring supplier, with the amounts of its bookings', () => {
    const [suggestion] = deriveSuggestions(monthly(12));

    expect(suggestion).toMatchObject({
      merchantKey: 'telenor norge',
      merchantName: 'Telenor Norge AS',
      accountCode: '6900',
      vatRate: '25',
      bookings: 12,
      merchantBookings: 12,
      share: 1,
      firstDate: '2026-01-10',
      lastDate: '2026-12-10',
    });
    expect(suggestion.amountStats).toMatchObject({ count: 12, min: 60000, max: 71000 });
  });

  it('treats descriptor variants as one merchant and keeps look-alikes apart', () => {
    const suggestions = deriveSuggestions([
      ...monthly(3, { merchant: 'UBER *TRIP 7XK2', accountCode: '7140', vatRate: '12' }),
      ...monthly(2, { merchant: 'UBER *TRIP HELP.UBER.COM', accountCode: '7140', vatRate: '12' }),
      ...monthly(4, { merchant: 'UBER *EATS 2QX9', accountCode: '5915', vatRate: '15' }),
    ]);

    expect(suggestions.map((s) => [s.merchantKey, s.accountCode, s.bookings])).toEqual([
      ['uber', '7140', 5],
      ['uber eats', '5915', 4],
    ]);
  });

  it(`suggests the dominant account only when it holds ${DOMINANT_SHARE * 100} % of the bookings`, () => {
    const dominated = [...monthly(5, { accountCode: '6540' }), booking({ accountCode: '6800' })];
    const mixed = [...monthly(3, { accountCode: '6540' }), ...monthly(3, { accountCode: '6800' })];

    expect(deriveSuggestions(dominated)).toEqual([
      expect.objectContaining({ accountCode: '6540', bookings: 5, merchantBookings: 6 }),
    ]);
    expect(deriveSuggestions(mixed)).toEqual([]);
  });

  it(`needs ${MIN_BOOKINGS_FOR_SUGGESTION} bookings: a one-off purchase suggests nothing`, () => {
    expect(deriveSuggestions(monthly(MIN_BOOKINGS_FOR_SUGGESTION - 1))).toEqual([]);
    expect(deriveSuggestions(monthly(MIN_BOOKINGS_FOR_SUGGESTION))).toHaveLength(1);
  });

  it('does not depend on the order of the bookings', () => {
    const bookings = [
      ...monthly(6),
      ...monthly(4, { merchant: 'Fjordkraft AS', accountCode: '6340' }),
      booking({ merchant: 'Fjordkraft AS', accountCode: '6300' }),
    ];
    fc.assert(
      fc.property(fc.shuffledSubarray(bookings, { minLength: bookings.length }), (shuffled) => {
        expect(deriveSuggestions(shuffled)).toEqual(deriveSuggestions(bookings));
      }),
    );
  });

  it('starts the history 12 months back', () => {
    expect(historyStart('2026-11-20')).toBe('2025-11-20');
  });
});

describe('suggestions as patterns', () => {
  const [derived] = deriveSuggestions(monthly(12));

  function suggested(existing: Pattern[] = []) {
    return suggestPattern('acme', existing, derived, origin, ctx());
  }

  it('makes an unverified pattern that scores in the review-recommended band, never auto-approving', () => {
    const [change] = suggested();
    const pattern = change.pattern;

    expect(pattern).toMatchObject({ verified: false, approvals: 0, confirmedBy: [], history: { bookings: 12 } });
    expect(change.events[0]).toMatchObject({ type: 'PatternSaved', data: { cause: 'suggested' } });
    const input = { merchant: 'Telenor Norge AS', accountCode: '6900', vatRate: '25', amount: 65000, currency: 'NOK' };
    const score = scoreProposal({ ...input, submittedBy: 'ola@acme.no' }, [pattern], { autoApproveMaxAmount: null });
    expect(score.route).toBe('review_recommended');
  });

  it('auto-approves once confirmed, for others than the confirmer, with the history amounts judging', () => {
    const [change] = suggested();
    const confirmed = confirmSuggestion(change.pattern, { ...origin, actor: 'kari@acme.no' }, ctx());
    const input = { merchant: 'TELENOR NORGE AS', accountCode: '6900', vatRate: '25', currency: 'NOK' };
    const policy = { autoApproveMaxAmount: null };

    expect(confirmed.pattern).toMatchObject({ verified: true, confirmedBy: ['kari@acme.no'], writtenBy: null });
    expect(confirmed.events[0]).toMatchObject({ actor: 'kari@acme.no', data: { cause: 'suggestion_confirmed' } });
    expect(
      scoreProposal({ ...input, amount: 65000, submittedBy: 'ola@acme.no' }, [confirmed.pattern], policy).route,
    ).toBe('auto_approve');
    expect(
      scoreProposal({ ...input, amount: 65000, submittedBy: 'kari@acme.no' }, [confirmed.pattern], policy).route,
    ).not.toBe('auto_approve');
    expect(
      scoreProposal({ ...input, amount: 650000, submittedBy: 'ola@acme.no' }, [confirmed.pattern], policy).route,
    ).not.toBe('auto_approve');
  });

  it('refreshes a pending suggestion, and leaves what people decided alone', () => {
    const [first] = suggested();
    const [refreshed] = suggested([first.pattern]);
    const confirmed = confirmSuggestion(first.pattern, origin, ctx()).pattern;

    expect(refreshed.pattern).toMatchObject({ id: first.pattern.id, version: 2 });
    expect(suggested([confirmed])).toEqual([]);
    expect(suggested([{ ...first.pattern, history: null, verified: true }])).toEqual([]);
  });

  it('retires a pending suggestion for another account before suggesting the new one', () => {
    const [first] = suggested();
    const changes = suggested([{ ...first.pattern, accountCode: '6800' }]);

    expect(changes.map((c) => [c.pattern.accountCode, c.pattern.retiredAt !== null])).toEqual([
      ['6800', true],
      ['6900', false],
    ]);
  });

  it('refuses to confirm what is not a pending suggestion', () => {
    const [first] = suggested();
    const confirmed = confirmSuggestion(first.pattern, origin, ctx()).pattern;

    expect(() => confirmSuggestion(confirmed, origin, ctx())).toThrow(/already confirmed/);
    expect(() => confirmSuggestion({ ...first.pattern, history: null }, origin, ctx())).toThrow(/not suggested/);
  });
});
