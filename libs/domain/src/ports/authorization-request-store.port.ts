import type { AuthorizationRequest } from '../connection/authorization-request';

/** Pending onboardings (the OAuth `state` nonces): each consumed at most once. */
export abstract class AuthorizationRequestStore {
  /** Remembers a pending request; drops requests that expired before `now` on the way. */
  abstract issue(request: AuthorizationRequest, now: Date): Promise<void>;

  /**
   * Removes the request and returns it, atomically: of two callbacks carrying the same state only
   * one gets it. Null when it is unknown or was consumed already. Expired requests are returned
   * too (and removed): the caller tells expiry apart from a replay.
   */
  abstract consume(nonce: string): Promise<AuthorizationRequest | null>;

  /** Whether the request is still pending (shown forms check it before the callback consumes it). */
  abstract isPending(nonce: string, now: Date): Promise<boolean>;
}
