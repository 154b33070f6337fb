import { ValidationFailed } from '@app/domain';
import { canonicalJson, requestFingerprint } from './request-fingerprint';
import { parseIdempotencyKey } from './idempotency-key';

describe('Idempotency-Key', () => {
  it.each(['a', 'order-2026-11-20/0001', ' spaced key ', '~'.repeat(255)])('accepts %p as it is', (key) => {
    expect(parseIdempotencyKey(key)).toBe(key);
  });

  it('is optional', () => {
    expect(parseIdempotencyKey(undefined)).toBeNull();
  });

  it.each([
    ['empty', ''],
    ['too long', 'k'.repeat(256)],
    ['non-ASCII', 'nøkkel'],
    ['a control character', 'key\tone'],
  ])('refuses one that is %s with validation_failed', (_label, key) => {
    expect(() => parseIdempotencyKey(key)).toThrow(ValidationFailed);
  });
});

describe('request fingerprint', () => {
  it('ignores key order and null or absent members', () => {
    expect(canonicalJson({ b: 1, a: { d: [1, { y: 2, x: null }], c: 'x' }, z: null })).toBe(
      '{"a":{"c":"x","d":[1,{"y":2}]},"b":1}',
    );
    expect(requestFingerprint({ a: 1, b: null })).toBe(requestFingerprint({ a: 1 }));
  });

  it('tells different values apart', () => {
    expect(requestFingerprint({ amount: '119.00' })).not.toBe(requestFingerprint({ amount: '119.0' }));
    expect(requestFingerprint({ tags: ['a', 'b'] })).not.toBe(requestFingerprint({ tags: ['b', 'a'] }));
  });

  it('is a lowercase hex SHA-256', () => {
    expect(requestFingerprint({})).toMatch(/^[0-9a-f]{64}$/);
  });
});
