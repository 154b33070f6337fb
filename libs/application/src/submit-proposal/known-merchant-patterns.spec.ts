import { aPattern, TEST_COMPANY } from '@app/testing';
import { KnownMerchantPatterns } from './known-merchant-patterns';

describe('KnownMerchantPatterns', () => {
  const spotify = aPattern({ merchantName: 'Spotify AB' });
  const key = spotify.merchantKey;

  it('remembers only the active patterns of exactly the key, frozen', () => {
    const known = new KnownMerchantPatterns();
    const lookAlike = aPattern({ merchantName: 'Spotifyy' });
    const retired = aPattern({ merchantName: 'Spotify AB', accountCode: '6300', retiredAt: new Date() });
    const otherCompanys = aPattern({ merchantName: 'Spotify AB', companyId: 'another-company' });

    known.remember(TEST_COMPANY, key, [spotify, lookAlike, retired, otherCompanys]);

    expect(known.get(TEST_COMPANY, key)).toEqual([spotify]);
    expect(Object.isFrozen(known.get(TEST_COMPANY, key))).toBe(true);
    expect(Object.isFrozen(known.get(TEST_COMPANY, key)![0].amountStats)).toBe(true);
    expect(known.get('another-company', key)).toBeUndefined();
  });

  it('does not remember a key without patterns of its own, and forgets one that lost them', () => {
    const known = new KnownMerchantPatterns();
    known.remember(TEST_COMPANY, key, [spotify]);

    known.remember(TEST_COMPANY, key, [aPattern({ merchantName: 'Spotifyy' })]);
    known.remember(TEST_COMPANY, '', [aPattern({ merchantKey: '' })]);

    expect(known.get(TEST_COMPANY, key)).toBeUndefined();
    expect(known.get(TEST_COMPANY, '')).toBeUndefined();
    expect(known.size).toBe(0);
  });

  it('forgets on request', () => {
    const known = new KnownMerchantPatterns();
    known.remember(TEST_COMPANY, key, [spotify]);

    known.forget(TEST_COMPANY, key);

    expect(known.get(TEST_COMPANY, key)).toBeUndefined();
  });

  it('holds at most its capacity, forgetting the oldest entry first', () => {
    const known = new KnownMerchantPatterns(2);
    const patterns = ['Alpha', 'Beta', 'Gamma'].map((merchantName) => aPattern({ merchantName }));
    for (const pattern of patterns) known.remember(TEST_COMPANY, pattern.merchantKey, [pattern]);
    known.remember(TEST_COMPANY, patterns[2].merchantKey, [patterns[2]]);

    expect(known.size).toBe(2);
    expect(known.get(TEST_COMPANY, patterns[0].merchantKey)).toBeUndefined();
    expect(known.get(TEST_COMPANY, patterns[1].merchantKey)).toEqual([patterns[1]]);
    expect(known.get(TEST_COMPANY, patterns[2].merchantKey)).toEqual([patterns[2]]);
  });

  it('remembers nothing with capacity 0', () => {
    const known = new KnownMerchantPatterns(0);
    known.remember(TEST_COMPANY, key, [spotify]);

    expect(known.size).toBe(0);
  });
});
