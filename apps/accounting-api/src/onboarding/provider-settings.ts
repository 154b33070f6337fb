import type { FikenSettings, ProviderSettings, TripletexSettings } from '@app/providers';
import type { AppConfig } from '../config/app-config';
import { SandboxRuntime } from '../sandbox/sandbox-runtime';

/**
 * Each registered provider's settings, by kind: where it is and the application's credentials
 * there — the in-process sandbox's in sandbox mode, else the configured ones. Refuses to start
 * without credentials.
 */
export function providerSettings(config: AppConfig, sandbox: SandboxRuntime): ProviderSettings {
  const running = sandbox.running;
  const credentials = running
    ? SandboxRuntime.credentials
    : {
        tripletexConsumerToken: config.tripletexConsumerToken,
        fikenClientId: config.fikenClientId,
        fikenClientSecret: config.fikenClientSecret,
      };
  const missing = [
    credentials.tripletexConsumerToken ? null : 'TRIPLETEX_CONSUMER_TOKEN',
    credentials.fikenClientId ? null : 'FIKEN_CLIENT_ID and FIKEN_CLIENT_SECRET',
  ].filter((m): m is string => m !== null);
  if (missing.length > 0) {
    throw new Error(`${missing.join(' and ')} must be configured when PROVIDER_SANDBOX is off`);
  }
  const resilience = { timeoutMs: config.providerTimeoutMs, retries: config.providerRetries };
  const fikenOAuth = running ? running.fikenOAuth : config.fikenOAuthUrl;
  const tripletex: TripletexSettings = {
    apiUrl: running ? running.tripletexApi : config.tripletexApiUrl,
    consentUrl: running ? running.tripletexConsent : null,
    config: { consumerToken: credentials.tripletexConsumerToken!, resilience },
    timeoutMs: config.providerTimeoutMs,
  };
  const fiken: FikenSettings = {
    apiUrl: running ? running.fikenApi : config.fikenApiUrl,
    authorizeUrl: `${fikenOAuth}/authorize`,
    tokenUrl: `${fikenOAuth}/token`,
    config: {
      clientId: credentials.fikenClientId!,
      clientSecret: credentials.fikenClientSecret!,
      maxConcurrentRequests: config.fikenMaxConcurrentRequests,
      resilience,
    },
    timeoutMs: config.providerTimeoutMs,
  };
  return { tripletex, fiken };
}
