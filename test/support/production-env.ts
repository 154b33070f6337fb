import { testKekSource } from '../../libs/persistence/src/testing/test-keyring';
import { TEST_AUDIENCE } from './gateway-keys';

/**
 * What production requires beyond the database and the gateway JWKS (env.schema.ts), for tests
 * that run the service with NODE_ENV=production: the test tokens' audience, the test keyring (it exists, as production
 * demands) and fixed secrets, the same for every instance a test starts. The sandboxes stand in
 * for the providers only where a test asks for them (`PROVIDER_SANDBOX=true`).
 */
export function productionSecretsEnv(): Record<string, string> {
  return {
    GATEWAY_AUDIENCE: TEST_AUDIENCE,
    KEK_SOURCE: testKekSource(),
    STATE_SECRET: 'test-state-secret: never use outside tests',
    WEBHOOK_SIGNING_KEY: 'test-webhook-signing-key: never use outside tests',
  };
}
