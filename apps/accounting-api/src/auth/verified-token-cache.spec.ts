import { generateKeyPairSync } from 'node:crypto';
import { VerifiedTokenCache, type VerifiedToken } from './verified-token-cache';

const { publicKey } = generateKeyPairSync('rsa', { modulusLength: 1024 });
const verified = (sub: string): VerifiedToken => ({ kid: 'gw-1', key: publicKey, payload: { sub } });

describe('VerifiedTokenCache', () => {
  it('finds a remembered token by its exact text only', () => {
    const cache = new VerifiedTokenCache();
    cache.remember('a.b.c', verified('ola@demo.no'));
    expect(cache.get('a.b.c')?.payload).toEqual({ sub: 'ola@demo.no' });
    expect(cache.get('a.b.C')).toBeUndefined();
  });

  it('forgets a token on request', () => {
    const cache = new VerifiedTokenCache();
    cache.remember('a.b.c', verified('ola@demo.no'));
    cache.forget('a.b.c');
    expect(cache.get('a.b.c')).toBeUndefined();
  });

  it('drops the oldest token when full, and never holds more than its capacity', () => {
    const cache = new VerifiedTokenCache(3);
    for (const token of ['t1', 't2', 't3', 't4']) cache.remember(token, verified(token));
    expect(cache.size).toBe(3);
    expect(cache.get('t1')).toBeUndefined();
    expect(['t2', 't3', 't4'].map((token) => cache.get(token)?.payload.sub)).toEqual(['t2', 't3', 't4']);
  });

  it('keeps the first verdict for a token remembered twice', () => {
    const cache = new VerifiedTokenCache(2);
    cache.remember('t1', verified('first'));
    cache.remember('t1', verified('second'));
    expect(cache.get('t1')?.payload.sub).toBe('first');
    expect(cache.size).toBe(1);
  });
});
