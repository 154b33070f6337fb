import { randomBytes } from 'node:crypto';
import { AuthorizationStateSigner, type StateClaims } from './authorization-state';

describe('AuthorizationStateSigner', () => {
  const signer = new AuthorizationStateSigner(randomBytes(32));
  const claims: StateClaims = {
    nonce: 'n'.repeat(32),
    companyId: 'acme',
    provider: 'fiken',
    expiresAt: 1_800_000_000_000,
  };

  it('verifies what it signed', () => {
    expect(signer.verify(signer.sign(claims))).toEqual(claims);
  });

  it('refuses a state signed with another key', () => {
    expect(new AuthorizationStateSigner(randomBytes(32)).verify(signer.sign(claims))).toBeNull();
  });

  it('refuses an altered payload, a truncated MAC and garbage', () => {
    const [payload, mac] = signer.sign(claims).split('.');
    const altered = Buffer.from(
      JSON.stringify({ n: claims.nonce, c: 'globex', p: 'fiken', e: claims.expiresAt }),
    ).toString('base64url');
    expect(signer.verify(`${altered}.${mac}`)).toBeNull();
    expect(signer.verify(`${payload}.${mac.slice(0, -1)}`)).toBeNull();
    expect(signer.verify(`${payload}.${mac}.x`)).toBeNull();
    expect(signer.verify('')).toBeNull();
    expect(signer.verify('x'.repeat(5000))).toBeNull();
  });

  // Whether the kind is registered is the callback's to check (it answers 404 for any other); the
  // state must at least name something shaped like a kind.
  it('refuses a validly signed state naming something that is not a provider kind', () => {
    const signed = signer.sign({ ...claims, provider: 'Visma AS' });
    expect(signer.verify(signed)).toBeNull();
  });

  it('refuses keys shorter than 32 bytes', () => {
    expect(() => new AuthorizationStateSigner(randomBytes(16))).toThrow(/32 bytes/);
  });
});
