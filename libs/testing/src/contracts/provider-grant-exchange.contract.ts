import {
  ProviderError,
  type GrantedCompany,
  type OAuthTokens,
  type ProviderGrantExchange,
  type ProviderKind,
  type RedeemedGrant,
} from '@app/domain';

/** A company the provider under test knows, and what the exchange should say about it. */
export interface ProviderGrantExchangeUnderTest {
  readonly exchange: ProviderGrantExchange;
  /** The instant the exchange's clock reads: an access token's expiry is counted from it. */
  readonly now: () => Date;
  /**
   * An admin approves, at Fiken's consent screen, access to the provider's `index`th company for a
   * request with this redirect URI and state: the authorization code and the company it opens.
   */
  consentFiken(index: number, redirectUri: string, state: string): Promise<{ code: string; company: GrantedCompany }>;
  /** An employee token of the provider's `index`th Tripletex company, and the company. */
  tripletexEmployee(index: number): { employeeToken: string; company: GrantedCompany };
  /** The provider answers with server errors until `restore`. */
  outage(provider: 'tripletex' | 'fiken'): void | Promise<void>;
  restore(provider: 'tripletex' | 'fiken'): void | Promise<void>;
}

/**
 * The ProviderGrantExchange contract: a Fiken authorization code is redeemed once, only with the
 * redirect URI and state it was issued for, for tokens and the company consented to (first in the
 * list); a Tripletex employee token is verified, kept as the secret and names its company; anything
 * the provider refuses is a ProviderError with reason `rejected` (a kind nobody registered too), a
 * provider that is down one with `unavailable`.
 */
export function describeProviderGrantExchangeContract(
  name: string,
  factory: () => ProviderGrantExchangeUnderTest | Promise<ProviderGrantExchangeUnderTest>,
): void {
  describe(`ProviderGrantExchange contract: ${name}`, () => {
    let subject: ProviderGrantExchangeUnderTest;
    let exchange: ProviderGrantExchange;
    const redirectUri = 'https://accounting.example/v1/oauth/fiken/callback';

    beforeEach(async () => {
      subject = await factory();
      exchange = subject.exchange;
    });

    const redeemFikenCode = (code: string, uri: string, state: string) =>
      exchange.redeem('fiken', { code, redirectUri: uri, state });
    const tokensOf = (redeemed: RedeemedGrant): OAuthTokens => {
      if (redeemed.secret.kind !== 'oauth') throw new Error(`expected OAuth tokens, got a ${redeemed.secret.kind}`);
      return redeemed.secret.tokens;
    };
    /** Redeems an employee token; the secret must be the token itself, the company the first granted. */
    const verifyTripletexEmployeeToken = async (employeeToken: string): Promise<GrantedCompany | undefined> => {
      const redeemed = await exchange.redeem('tripletex', {
        code: employeeToken,
        redirectUri: 'https://accounting.example/v1/oauth/tripletex/callback',
        state: 'state-t',
      });
      expect(redeemed.secret).toEqual({ kind: 'token', token: employeeToken });
      return redeemed.companies[0];
    };

    /** Awaits a call that must fail, and checks it failed as a ProviderError of this provider and reason. */
    async function expectRefused(
      call: Promise<unknown>,
      provider: ProviderKind,
      reason: 'rejected' | 'unavailable',
    ): Promise<void> {
      const error = await call.then(
        () => undefined,
        (failure: unknown) => failure,
      );
      expect(error).toBeInstanceOf(ProviderError);
      expect(error).toMatchObject({ provider, reason });
    }

    it('redeems a Fiken code for tokens and the company consented to', async () => {
      const { code, company } = await subject.consentFiken(1, redirectUri, 'state-1');

      const redeemed = await redeemFikenCode(code, redirectUri, 'state-1');
      const tokens = tokensOf(redeemed);

      expect(tokens).toEqual({
        accessToken: expect.any(String),
        refreshToken: expect.any(String),
        expiresAt: expect.any(Number),
      });
      expect(tokens.accessToken).not.toBe('');
      expect(tokens.refreshToken).not.toBe(tokens.accessToken);
      expect(tokens.expiresAt).toBeGreaterThan(subject.now().getTime());
      expect(redeemed.companies[0]).toEqual(company);
    });

    it('gives each redeemed code tokens of its own', async () => {
      const first = await subject.consentFiken(0, redirectUri, 'state-a');
      const second = await subject.consentFiken(0, redirectUri, 'state-b');

      const a = tokensOf(await redeemFikenCode(first.code, redirectUri, 'state-a'));
      const b = tokensOf(await redeemFikenCode(second.code, redirectUri, 'state-b'));

      expect(b.accessToken).not.toBe(a.accessToken);
      expect(b.refreshToken).not.toBe(a.refreshToken);
    });

    it('redeems a Fiken code once', async () => {
      const { code } = await subject.consentFiken(0, redirectUri, 'state-once');
      await redeemFikenCode(code, redirectUri, 'state-once');

      await expectRefused(redeemFikenCode(code, redirectUri, 'state-once'), 'fiken', 'rejected');
    });

    it('refuses a Fiken code presented with another state or redirect URI', async () => {
      const forState = await subject.consentFiken(0, redirectUri, 'state-x');
      const forUri = await subject.consentFiken(0, redirectUri, 'state-y');

      await expectRefused(redeemFikenCode(forState.code, redirectUri, 'state-other'), 'fiken', 'rejected');
      await expectRefused(
        redeemFikenCode(forUri.code, 'https://elsewhere.example/callback', 'state-y'),
        'fiken',
        'rejected',
      );
    });

    it('refuses an unknown Fiken code', async () => {
      await expectRefused(redeemFikenCode('no-such-code', redirectUri, 'state-z'), 'fiken', 'rejected');
    });

    it('verifies a Tripletex employee token and names its company', async () => {
      const first = subject.tripletexEmployee(0);
      const second = subject.tripletexEmployee(1);

      expect(await verifyTripletexEmployeeToken(first.employeeToken)).toEqual(first.company);
      expect(await verifyTripletexEmployeeToken(second.employeeToken)).toEqual(second.company);
      expect(second.company.id).not.toBe(first.company.id);
    });

    it('refuses an unknown Tripletex employee token', async () => {
      await expectRefused(verifyTripletexEmployeeToken('not-an-employee-token'), 'tripletex', 'rejected');
    });

    it('refuses a provider kind nobody registered', async () => {
      await expectRefused(
        exchange.redeem('no-such-provider', { code: 'c', redirectUri, state: 'state-u' }),
        'no-such-provider',
        'rejected',
      );
    });

    it('says a provider that is down is unavailable', async () => {
      const { code } = await subject.consentFiken(0, redirectUri, 'state-down');
      const { employeeToken } = subject.tripletexEmployee(0);
      await subject.outage('fiken');
      await subject.outage('tripletex');

      try {
        await expectRefused(redeemFikenCode(code, redirectUri, 'state-down'), 'fiken', 'unavailable');
        await expectRefused(verifyTripletexEmployeeToken(employeeToken), 'tripletex', 'unavailable');
      } finally {
        await subject.restore('fiken');
        await subject.restore('tripletex');
      }

      expect(await verifyTripletexEmployeeToken(employeeToken)).toEqual(subject.tripletexEmployee(0).company);
    });
  });
}
