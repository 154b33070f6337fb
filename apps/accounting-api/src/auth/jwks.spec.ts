import { generateKeyPairSync } from 'node:crypto';
import { parseJwks } from './jwks';

const { publicKey, privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
const pub = publicKey.export({ format: 'jwk' });

describe('parsing the gateway JWKS', () => {
  it('reads RSA keys with kid and activatedAt', () => {
    const { keys, problems } = parseJwks({
      keys: [{ ...pub, kid: 'a', alg: 'RS256', activatedAt: '2026-10-01T00:00:00Z' }],
    });
    expect(problems).toEqual([]);
    expect(keys.map((k) => [k.kid, k.activatedAt.toISOString(), k.key.asymmetricKeyType])).toEqual([
      ['a', '2026-10-01T00:00:00.000Z', 'rsa'],
    ]);
  });

  it('skips bad entries and keeps the good ones', () => {
    const { keys, problems } = parseJwks({
      keys: [
        { ...pub, kid: 'good' },
        { ...pub }, // no kid
        { ...pub, kid: 'hs', alg: 'HS256' },
        { kty: 'EC', kid: 'ec', crv: 'P-256', x: 'x', y: 'y' },
        { ...pub, kid: 'when', activatedAt: 'next tuesday' },
        { ...(privateKey.export({ format: 'jwk' }) as object), kid: 'private' },
        { kty: 'RSA', kid: 'broken', n: '!!', e: 'AQAB' },
      ],
    });
    expect(keys.map((k) => k.kid)).toEqual(['good']);
    expect(problems).toHaveLength(6);
  });

  it('reports a document without keys', () => {
    expect(parseJwks({}).problems).toEqual(['the JWKS has no "keys" array']);
    expect(parseJwks(null).keys).toEqual([]);
  });
});
