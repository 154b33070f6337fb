import { parseProviderVariables, PROVIDERS, providerSettingsOf, type ProviderSettings } from '@app/providers';
import { sandboxEnvironment } from '@app/sandbox';
import type { AppConfig } from '../config/app-config';
import type { SandboxRuntime } from '../sandbox/sandbox-runtime';

/**
 * Each registered provider's settings, by kind, built by its definition (`config.settings`) from
 * its environment variables — in sandbox mode with the in-process sandbox's address and
 * credentials in place of the configured ones. Refuses to start without credentials.
 */
export function providerSettings(config: AppConfig, sandbox: SandboxRuntime): ProviderSettings {
  const running = sandbox.running;
  const env = running
    ? { ...config.providerEnv, ...parseProviderVariables(PROVIDERS, sandboxEnvironment(running.url)) }
    : config.providerEnv;
  return providerSettingsOf(PROVIDERS, env, { timeoutMs: config.providerTimeoutMs, retries: config.providerRetries });
}
