import type { ProviderKind } from '../provider/provider-connection';
import type { NewProviderConnection, ProviderConnectionRecord } from '../connection/provider-connection-record';

/**
 * The companies' provider connections (spec §2.5): their status and their sealed credentials.
 * Secrets are encrypted with the company's DEK (TokenVault) before they are stored and decrypted
 * only when asked for, at call time. Fiken's OAuth tokens are read and rotated through
 * `ProviderTokenStore`, which works on the same records.
 */
export abstract class ProviderConnectionRepository {
  /** The company's connection without secrets, or null when it never connected. */
  abstract find(companyId: string): Promise<ProviderConnectionRecord | null>;

  /**
   * Stores a fresh connection (onboarding): replaces any previous one of the company, whichever
   * provider it was, and clears a re-authorisation mark.
   */
  abstract connect(connection: NewProviderConnection): Promise<ProviderConnectionRecord>;

  /**
   * A `token` provider's secret (Tripletex's employee token) of the company's working connection to
   * `provider`, decrypted now. Throws `ProviderReauthorizationRequired` when there is none.
   */
  abstract storedToken(companyId: string, provider: ProviderKind): Promise<string>;

  /** Marks the connection as needing re-authorisation (the provider refused the credentials). */
  abstract markNeedsReauthorization(companyId: string, reason: string): Promise<void>;
}
