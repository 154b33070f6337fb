import { inspectSandboxExchanges, type ProviderName, type SandboxExchange } from '@app/sandbox';
import { checkFikenOAuth } from './fiken-oauth-contract';
import { OpenApiContract } from './openapi-contract';

export { DEFINITION_FILES, DEFINITION_SHA256, DEFINITIONS_DIR, definitionOf } from './definitions';
export { OpenApiContract } from './openapi-contract';
export { checkFikenOAuth } from './fiken-oauth-contract';

const contracts = new Map<ProviderName, OpenApiContract>();

/** The provider's definition as a contract, built once per process. */
export function contractOf(provider: ProviderName): OpenApiContract {
  let contract = contracts.get(provider);
  if (!contract) {
    contract = new OpenApiContract(provider);
    contracts.set(provider, contract);
  }
  return contract;
}

export interface ProviderContractOptions {
  /**
   * Check the requests too (default). The sandbox's own specs send requests the providers refuse on
   * purpose and check only the answers.
   */
  readonly requests?: boolean;
}

/** Every way one exchange breaks its provider's published definition. */
export function contractViolations(exchange: SandboxExchange, options: ProviderContractOptions = {}): string[] {
  if (exchange.surface === 'oauth') return options.requests === false ? [] : checkFikenOAuth(exchange);
  const contract = contractOf(exchange.provider);
  return [
    ...(options.requests === false ? [] : [...credentialProblems(exchange), ...contract.checkRequest(exchange)]),
    ...contract.checkResponse(exchange),
  ];
}

/**
 * Checks every request the code under test sends to a sandbox in this test file, and every answer
 * a sandbox gives, against the providers' published definitions (test/fixtures/providers). A
 * violation fails the test during which it happened (in its afterEach), naming the operation and
 * what the definition says. Call at the top of a spec file or in a describe block.
 */
export function checkProviderContract(options: ProviderContractOptions = {}): void {
  // Checked after each test rather than as the answers go out: compiling a schema takes a while,
  // and the code under test must not see its requests slowed down by it.
  let exchanges: SandboxExchange[] = [];
  let stop: (() => void) | undefined;
  beforeAll(() => {
    stop = inspectSandboxExchanges((exchange) => exchanges.push(exchange));
  });
  afterEach(() => {
    const seen = exchanges;
    exchanges = [];
    const found = new Set<string>();
    for (const exchange of seen) {
      try {
        for (const violation of contractViolations(exchange, options)) found.add(violation);
      } catch (error) {
        found.add(`checking ${exchange.method} ${exchange.path} failed: ${String(error)}`);
      }
    }
    if (found.size > 0) {
      throw new Error(`the providers' definitions refuse what this test sent or got:\n  ${[...found].join('\n  ')}`);
    }
  });
  afterAll(() => stop?.());
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The authentication each API documents: Fiken Bearer tokens, Tripletex `Basic <company or 0>:<session>`. */
function credentialProblems(exchange: SandboxExchange): string[] {
  const authorization = String(exchange.requestHeaders.authorization ?? '');
  const where = `${exchange.provider} ${exchange.method} ${exchange.path}`;
  if (exchange.provider === 'fiken') {
    const problems = /^Bearer\s+\S+$/.test(authorization) ? [] : [`${where}: no Bearer access token`];
    const requestId = exchange.requestHeaders['x-request-id'];
    if (requestId !== undefined && !UUID.test(String(requestId))) problems.push(`${where}: X-Request-ID is not a UUID`);
    return problems;
  }
  if (exchange.method === 'PUT' && exchange.path === '/token/session/:create') {
    return authorization === '' ? [] : [`${where}: creating a session takes no Authorization header`];
  }
  const basic = /^Basic\s+(\S+)$/.exec(authorization);
  const decoded = basic ? Buffer.from(basic[1], 'base64').toString('utf8') : '';
  return /^\d*:.+$/.test(decoded) ? [] : [`${where}: no Basic <company id or 0>:<session token> credentials`];
}
