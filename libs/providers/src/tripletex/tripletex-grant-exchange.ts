import { Clock, ProviderError, type GrantProof, type RedeemedGrant } from '@app/domain';
import { grantCall, objectField, stringField } from '../http/grant-http';
import { tripletexSessionExpirationDate } from '../shared/dates';
import type { GrantRedeemer } from '../provider-definition';

/**
 * Tripletex's onboarding: the proof is the employee token the admin pasted. It is verified by
 * creating a session with it (`PUT {api}/token/session/:create` with the consumer token), then
 * `GET {api}/token/session/>whoAmI` with `Basic 0:<session>` names the company. Error messages
 * never carry a token or a URL with one.
 */
export class TripletexGrantExchange implements GrantRedeemer {
  constructor(
    private readonly settings: { apiUrl: string; consumerToken: string | undefined; timeoutMs: number },
    private readonly clock: Clock,
  ) {}

  async redeem(proof: GrantProof): Promise<RedeemedGrant> {
    const employeeToken = proof.code;
    const { apiUrl, consumerToken, timeoutMs } = this.settings;
    if (!consumerToken)
      throw new ProviderError('tripletex', 'rejected', 'this service has no Tripletex consumer token configured');
    const create = new URL(`${apiUrl}/token/session/:create`);
    create.searchParams.set('consumerToken', consumerToken);
    create.searchParams.set('employeeToken', employeeToken);
    create.searchParams.set('expirationDate', tripletexSessionExpirationDate(this.clock.now()));
    const session = await grantCall(
      'tripletex',
      'PUT /token/session/:create',
      create.toString(),
      { method: 'PUT', headers: { Accept: 'application/json' } },
      timeoutMs,
    );
    const sessionToken = stringField(objectField(session.body, 'value'), 'token');
    if (!sessionToken) throw new ProviderError('tripletex', 'rejected', 'Tripletex created a session without a token');
    const whoAmI = await grantCall(
      'tripletex',
      'GET /token/session/>whoAmI',
      `${apiUrl}/token/session/%3EwhoAmI`,
      {
        method: 'GET',
        headers: {
          Authorization: `Basic ${Buffer.from(`0:${sessionToken}`).toString('base64')}`,
          Accept: 'application/json',
        },
      },
      timeoutMs,
    );
    await this.requireEntitlements(apiUrl, sessionToken, timeoutMs);
    const companyId = objectField(whoAmI.body, 'value').companyId;
    const company = { id: companyId === undefined || companyId === null ? '' : String(companyId), name: null };
    return { secret: { kind: 'token', token: employeeToken }, companies: [company] };
  }

  /**
   * Refuses an employee token that lacks a right the adapter needs: "Advanced Voucher", which
   * `POST /ledger/voucher?sendToLedger=true` requires (a token without it would connect, then fail
   * every booking with 403). Read with `GET /employee/entitlement` (the token owner's privileges);
   * an administrator holds every right. When Tripletex does not let the token read its privileges
   * (403/404) nothing can be told, and the connection goes ahead: a booking refused later names the
   * right in its message.
   */
  private async requireEntitlements(apiUrl: string, sessionToken: string, timeoutMs: number): Promise<void> {
    let names: string[];
    try {
      const answer = await grantCall(
        'tripletex',
        'GET /employee/entitlement',
        `${apiUrl}/employee/entitlement?fields=entitlementId,name&count=1000`,
        {
          method: 'GET',
          headers: {
            Authorization: `Basic ${Buffer.from(`0:${sessionToken}`).toString('base64')}`,
            Accept: 'application/json',
          },
        },
        timeoutMs,
      );
      const values = (answer.body as { values?: unknown }).values;
      names = Array.isArray(values) ? values.map((v) => stringField(v, 'name') ?? '') : [];
    } catch (error) {
      if (error instanceof ProviderError && (error.status === 403 || error.status === 404)) return;
      throw error;
    }
    if (names.some((name) => ADMINISTRATOR.test(name))) return;
    const missing = REQUIRED_RIGHTS.filter((right) => !names.some((name) => right.pattern.test(name)));
    if (missing.length > 0) {
      throw new ProviderError(
        'tripletex',
        'rejected',
        `the Tripletex employee token lacks the right ${missing.map((r) => `"${r.label}"`).join(', ')} ` +
          `(${missing.map((r) => r.why).join('; ')}): give the token's employee that right in Tripletex, ` +
          'or make a new token with it, and connect again',
      );
    }
  }
}

/** Privilege names that make an administrator, who holds every right. */
const ADMINISTRATOR = /ADMINISTRATOR/i;

/** The rights the adapter needs, as Tripletex names them (names "might change between releases"). */
const REQUIRED_RIGHTS: readonly { label: string; pattern: RegExp; why: string }[] = [
  {
    label: 'Advanced Voucher',
    pattern: /ADVANCED[_ ]?VOUCHER/i,
    why: 'needed to post vouchers to the ledger, sendToLedger=true',
  },
];
