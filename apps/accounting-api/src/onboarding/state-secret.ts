import type { AppConfig } from '../config/app-config';
import { configuredOrGeneratedSecret } from '../platform/secret-file';

/**
 * The key that signs onboarding `state`s: STATE_SECRET, or a random key generated once into
 * DATA_DIR/state-secret (mode 0600). Several instances behind one callback URL must share
 * STATE_SECRET, or a state signed by one is refused by another.
 */
export function stateSigningKey(config: AppConfig): Buffer {
  return configuredOrGeneratedSecret(config.stateSecret, config.dataDir, 'state-secret');
}
