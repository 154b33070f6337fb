import type { ProviderKind } from '../provider/provider-connection';

/** How long an admin has to finish a provider's consent screen after starting to connect. */
export const AUTHORIZATION_STATE_TTL_MS = 10 * 60 * 1000;

/**
 * An onboarding in progress: the admin asked to connect `provider` for `companyId` and the browser
 * went to the provider's consent screen. The `nonce` travels (signed) in OAuth's `state`; the
 * callback consumes the request once, so a state can never be replayed.
 */
export interface AuthorizationRequest {
  readonly nonce: string;
  readonly companyId: string;
  readonly provider: ProviderKind;
  /** The admin who started it; the connection records them as `connectedBy`. */
  readonly actor: string;
  readonly expiresAt: Date;
}

/** Why a callback's state was not accepted; nothing is stored in any of these cases. */
export type StateRejection = 'forged' | 'expired' | 'replayed' | 'other_browser' | 'unbound';
