import { AuthorizationRequestStore, type AuthorizationRequest } from '@app/domain';
import { copy } from './snapshottable';

/** Pending onboardings in a map, keyed by nonce; each read and write is a copy. */
export class InMemoryAuthorizationRequestStore extends AuthorizationRequestStore {
  private readonly requests = new Map<string, AuthorizationRequest>();

  async issue(request: AuthorizationRequest, now: Date): Promise<void> {
    for (const [nonce, pending] of this.requests) {
      if (pending.expiresAt.getTime() < now.getTime()) this.requests.delete(nonce);
    }
    // A nonce names one request: like the table's primary key, a second one under it is refused.
    if (this.requests.has(request.nonce)) throw new Error(`authorization request ${request.nonce} exists already`);
    this.requests.set(request.nonce, copy(request));
  }

  async consume(nonce: string): Promise<AuthorizationRequest | null> {
    const request = this.requests.get(nonce);
    if (!request) return null;
    this.requests.delete(nonce);
    return request;
  }

  async isPending(nonce: string, now: Date): Promise<boolean> {
    const request = this.requests.get(nonce);
    return request !== undefined && request.expiresAt.getTime() > now.getTime();
  }
}
