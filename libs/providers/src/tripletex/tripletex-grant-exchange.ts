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
    const companyId = objectField(whoAmI.body, 'value').companyId;
    const company = { id: companyId === undefined || companyId === null ? '' : String(companyId), name: null };
    return { secret: { kind: 'token', token: employeeToken }, companies: [company] };
  }
}
