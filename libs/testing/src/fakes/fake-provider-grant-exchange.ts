import { randomBytes } from 'node:crypto';
import {
  Clock,
  ProviderError,
  ProviderGrantExchange,
  type GrantedCompany,
  type GrantProof,
  type ProviderKind,
  type RedeemedGrant,
} from '@app/domain';

interface IssuedCode {
  readonly company: GrantedCompany;
  readonly redirectUri: string;
  readonly state: string;
  used: boolean;
}

/** Access tokens live an hour, as Fiken's do. */
const ACCESS_TOKEN_LIFETIME_MS = 3_600_000;

/**
 * The providers' side of onboarding without a network: a test plays the consent screen
 * (`consentFiken`) and registers the employee tokens Tripletex would accept
 * (`addTripletexEmployee`). Like the providers, a Fiken code is redeemed once, only with the
 * redirect URI and state it was issued for, and anything unknown is refused as `rejected`.
 */
export class FakeProviderGrantExchange extends ProviderGrantExchange {
  private readonly codes = new Map<string, IssuedCode>();
  private readonly employees = new Map<string, GrantedCompany>();
  private readonly down = new Set<ProviderKind>();

  constructor(private readonly clock: Clock) {
    super();
  }

  /** The admin approves access to `company` at Fiken's consent screen: the code the redirect carries. */
  consentFiken(company: GrantedCompany, redirectUri: string, state: string): string {
    const code = randomBytes(24).toString('base64url');
    this.codes.set(code, { company, redirectUri, state, used: false });
    return code;
  }

  /** An employee token Tripletex accepts, opening `companyId`. */
  addTripletexEmployee(employeeToken: string, companyId: string): void {
    this.employees.set(employeeToken, { id: companyId, name: null });
  }

  /** The provider answers every call with a server error until `restore`. */
  outage(provider: ProviderKind): void {
    this.down.add(provider);
  }

  restore(provider: ProviderKind): void {
    this.down.delete(provider);
  }

  async redeem(provider: ProviderKind, proof: GrantProof): Promise<RedeemedGrant> {
    switch (provider) {
      case 'fiken':
        return this.redeemFikenCode(proof);
      case 'tripletex':
        return this.verifyTripletexEmployeeToken(proof.code);
      default:
        throw new ProviderError(provider, 'rejected', `no accounting provider ${provider} is registered`);
    }
  }

  private redeemFikenCode({ code, redirectUri, state }: GrantProof): RedeemedGrant {
    this.refuseWhenDown('fiken');
    const issued = this.codes.get(code);
    if (!issued || issued.used) throw new ProviderError('fiken', 'rejected', 'the authorization code is invalid');
    // Like Fiken, a code presented with the wrong redirect URI or state is spent all the same.
    issued.used = true;
    if (issued.redirectUri !== redirectUri || issued.state !== state)
      throw new ProviderError('fiken', 'rejected', 'the authorization code was issued for another request');
    return {
      secret: {
        kind: 'oauth',
        tokens: {
          accessToken: randomBytes(24).toString('base64url'),
          refreshToken: randomBytes(24).toString('base64url'),
          expiresAt: this.clock.now().getTime() + ACCESS_TOKEN_LIFETIME_MS,
        },
      },
      companies: [{ ...issued.company }],
    };
  }

  private verifyTripletexEmployeeToken(employeeToken: string): RedeemedGrant {
    this.refuseWhenDown('tripletex');
    const company = this.employees.get(employeeToken);
    if (!company) throw new ProviderError('tripletex', 'rejected', 'the employee token is not valid');
    return { secret: { kind: 'token', token: employeeToken }, companies: [{ ...company }] };
  }

  private refuseWhenDown(provider: ProviderKind): void {
    if (this.down.has(provider)) throw new ProviderError(provider, 'unavailable', `${provider} answered 503`);
  }
}
