import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, SwaggerModule, type OpenAPIObject } from '@nestjs/swagger';
import { IDEMPOTENT_REPLAYED_HEADER } from '../idempotency/idempotency-key.decorator';

/*
 * The OpenAPI document. @nestjs/swagger builds it from the decorators; `refineOpenApi` then makes it
 * one that code generators and validating proxies can take at its word (OpenAPI 3.1):
 *  - nullable fields are typed as what they are, or null (`type: [string, "null"]`, a nullable
 *    object as `anyOf: [{$ref}, {type: "null"}]`), where the decorators' `nullable: true` loses the
 *    type or puts `nullable` beside an `allOf` that still refuses null;
 *  - every error response is `application/problem+json` with the problem schema, as sent;
 *  - the headers every response carries are declared (X-Request-Id, the rate limit's, Retry-After,
 *    Idempotent-Replayed);
 *  - operation ids are verbs a generated client reads well (`submitProposal`, `approveProposal`);
 *  - public operations say `security: []`; the servers and the licence are given;
 *  - a path whose parameter is an enum and which another path could also match is written out per
 *    value (`/v1/tripletex/balance`, `/v1/fiken/balance`), so no request is ambiguous.
 */

type Json = Record<string, unknown>;
type Schema = Json & { type?: string | string[]; nullable?: boolean; allOf?: Json[]; $ref?: string; enum?: unknown[] };

/** Operation ids, by Nest's default id (`Controller_method`). Others get `<method><Resource>`. */
const OPERATION_IDS: Record<string, string> = {
  HealthController_health: 'getHealth',
  HealthController_live: 'getLiveness',
  HealthController_ready: 'getReadiness',
  WhoamiController_whoami: 'getWhoami',
  ProposalsController_submit: 'submitProposal',
  ProposalListController_list: 'listProposals',
  ProposalsController_get: 'getProposal',
  ReviewController_approve: 'approveProposal',
  ReviewController_reject: 'rejectProposal',
  EventsController_list: 'listEvents',
  PatternsController_suggestions: 'listPatternSuggestions',
  PatternsController_confirm: 'confirmPatternSuggestions',
  PatternsController_refresh: 'refreshPatternSuggestions',
  PatternsController_list: 'listPatterns',
  PatternsController_create: 'createPattern',
  PatternsController_edit: 'updatePattern',
  PatternsController_retire: 'retirePattern',
  CompanyConfigController_get: 'getCompanySettings',
  CompanyConfigController_put: 'updateCompanySettings',
  ConsoleLoginController_link: 'createConsoleLink',
  ConnectController_connect: 'connectProvider',
  OAuthCallbackController_callback: 'completeProviderAuthorization',
  OAuthCallbackController_tokenForm: 'getTripletexTokenForm',
  ContextController_get: 'getCompanyContext',
  ContextController_refresh: 'refreshCompanyContext',
  EmployeesController_list: 'listEmployees',
  EmployeesController_get: 'getEmployee',
  EmployeesController_put: 'putEmployee',
  EmployeesController_delete: 'deleteEmployee',
  FactsController_facts: 'getConversationFacts',
  BalanceController_balance: 'getBalance',
  ChecksController_missingReceipts: 'listMissingReceipts',
  ChecksController_overdueInvoices: 'listOverdueInvoices',
};

const STATUS_TEXT: Record<string, string> = {
  '200': 'OK',
  '201': 'Created',
  '204': 'No content',
  '400': 'validation_failed: the request is malformed; errors[] names each field',
  '401': 'invalid_token or token_expired',
  '403': 'the token may not do this',
  '404': 'not found',
  '409': 'conflict with the current state',
  '413': 'payload_too_large',
  '415': 'unsupported_media_type',
  '422': 'the request is well-formed but refused',
  '429': 'rate_limited: too many requests for this company and user; retry after Retry-After seconds',
  '500': 'internal_error: the failure is logged under errorId',
  '502': 'the provider failed',
  '503': 'unavailable: retry later',
  '504': 'the provider did not answer in time',
};

const HEADERS: Record<string, Json> = {
  XRequestId: {
    description:
      'the request id: the one the caller sent (X-Request-Id), else one made up; in every log line of the request',
    required: true,
    schema: { type: 'string' },
  },
  XRateLimitLimit: {
    description: 'requests allowed per minute for this company and user',
    schema: { type: 'integer', minimum: 0 },
  },
  XRateLimitRemaining: {
    description: 'requests left in the current minute',
    schema: { type: 'integer', minimum: 0 },
  },
  XRateLimitReset: {
    description: 'seconds until the current window ends',
    schema: { type: 'integer', minimum: 0 },
  },
  RetryAfter: {
    description: 'seconds to wait before trying again',
    required: true,
    schema: { type: 'integer', minimum: 0 },
  },
  WwwAuthenticate: {
    description: 'RFC 6750: the Bearer scheme, and why the token was refused',
    required: true,
    schema: { type: 'string', example: 'Bearer realm="accounting-api", error="invalid_token"' },
  },
  IdempotentReplayed: {
    description: 'present on a replay: the first response to this Idempotency-Key, sent again',
    schema: { type: 'string', enum: ['true'] },
  },
};

const ref = (kind: string, name: string) => ({ $ref: `#/components/${kind}/${name}` });

const HTML_PAGE = { 'text/html': { schema: { type: 'string' } } };

/** An error response documented with the problem schema, or with no body yet: sent as problem+json. */
function isProblem(content: unknown): boolean {
  if (!isRecord(content)) return true;
  const media = Object.values(content);
  return (
    media.length === 0 || media.every((m) => isRecord(m) && JSON.stringify(m.schema ?? {}).includes('/ProblemDto'))
  );
}

function isRecord(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** OpenAPI 3.0's `nullable` as JSON Schema 2020-12 (OpenAPI 3.1), everywhere in a schema. */
function nullableToTypeArrays(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(nullableToTypeArrays);
  if (!isRecord(node)) return node;
  const out: Schema = {};
  for (const [key, value] of Object.entries(node)) out[key] = nullableToTypeArrays(value);
  if (out.nullable !== true) {
    delete out.nullable;
    return out;
  }
  delete out.nullable;
  const single = Array.isArray(out.allOf) && out.allOf.length === 1 ? out.allOf[0] : undefined;
  if (single !== undefined || typeof out.$ref === 'string') {
    const { allOf: _allOf, $ref, type: _type, ...rest } = out;
    return { ...rest, anyOf: [single ?? { $ref }, { type: 'null' }] };
  }
  if (typeof out.type === 'string') {
    out.type = [out.type, 'null'];
    if (Array.isArray(out.enum) && !out.enum.includes(null)) out.enum = [...out.enum, null];
  }
  return out;
}

function segmentsMayMatch(a: string[], b: string[]): boolean {
  return a.length === b.length && a.every((s, i) => s === b[i] || s.startsWith('{') || b[i].startsWith('{'));
}

/** Paths that some request could match as well as another path, written out per enum value of a parameter. */
function expandAmbiguousPaths(document: OpenAPIObject): void {
  const paths = document.paths as Record<string, Record<string, Json>>;
  for (const template of Object.keys(paths)) {
    const segments = template.split('/');
    const others = Object.keys(paths).filter((p) => p !== template && segmentsMayMatch(segments, p.split('/')));
    if (others.length === 0) continue;
    const item = paths[template];
    const operations = Object.values(item).filter(isRecord);
    const parameters = operations.flatMap((op) => (op.parameters as Json[] | undefined) ?? []);
    const enumParam = parameters.find(
      (p) =>
        p.in === 'path' &&
        isRecord(p.schema) &&
        Array.isArray(p.schema.enum) &&
        segments.includes(`{${String(p.name)}}`),
    );
    if (enumParam === undefined) continue;
    const name = String(enumParam.name);
    const values = (enumParam.schema as Schema).enum as string[];
    delete paths[template];
    for (const value of values) {
      const concrete: Record<string, Json> = {};
      for (const [method, op] of Object.entries(item)) {
        if (!isRecord(op)) continue;
        concrete[method] = {
          ...op,
          operationId: `${String(op.operationId)}${value[0].toUpperCase()}${value.slice(1)}`,
          parameters: ((op.parameters as Json[] | undefined) ?? []).filter(
            (p) => !(p.in === 'path' && p.name === name),
          ),
        };
      }
      paths[template.replace(`{${name}}`, value)] = concrete;
    }
  }
}

function defaultOperationId(id: string): string {
  const [controller, method] = id.split('_');
  const resource = controller.replace(/Controller$/, '');
  return `${method}${resource}`;
}

/** The refinements above, applied to the document @nestjs/swagger built. */
export function refineOpenApi(document: OpenAPIObject, serverUrl: string): OpenAPIObject {
  const refined = nullableToTypeArrays(document) as OpenAPIObject;
  refined.openapi = '3.1.0';
  const { contact: _contact, ...info } = refined.info;
  // OpenAPI 3.1's SPDX `identifier` (the package is UNLICENSED: all rights reserved).
  const license = { name: 'Proprietary', identifier: 'LicenseRef-Proprietary' };
  refined.info = { ...info, license: license as OpenAPIObject['info']['license'] };
  // A local instance is reached on the origin that serves this document: a relative server.
  refined.servers = /^https?:\/\/(localhost|127\.0\.0\.1|\[::1\])(:|\/|$)/.test(serverUrl)
    ? [{ url: '/', description: 'the origin serving this document' }]
    : [{ url: serverUrl, description: 'this instance (PUBLIC_URL)' }];
  const components = (refined.components ??= {});
  components.headers = { ...(components.headers ?? {}), ...HEADERS } as typeof components.headers;
  for (const item of Object.values(refined.paths)) {
    for (const operation of Object.values(item as Record<string, unknown>)) {
      if (!isRecord(operation) || !isRecord(operation.responses)) continue;
      const id = String(operation.operationId ?? '');
      operation.operationId = OPERATION_IDS[id] ?? defaultOperationId(id);
      const secured = Array.isArray(operation.security) && operation.security.length > 0;
      if (!secured) operation.security = [];
      const idempotent = ((operation.parameters as Json[] | undefined) ?? []).some(
        (p) => p.in === 'header' && p.name === 'Idempotency-Key',
      );
      const responses = operation.responses as Record<string, Json>;
      const html = Object.values(responses).some((r) => isRecord(r.content) && 'text/html' in r.content);
      if (secured && responses['429'] === undefined) responses['429'] = {};
      if (responses['500'] === undefined) responses['500'] = {};
      // Any request that reads or writes the database answers 503 while PostgreSQL is unavailable.
      if (!html && responses['503'] === undefined) {
        responses['503'] = {
          description:
            'service_unavailable: the database is unavailable; retry after Retry-After seconds (a write says whether its outcome is unknown: retry it with the same Idempotency-Key)',
          content: { 'application/problem+json': { schema: ref('schemas', 'ProblemDto') } },
        };
      }
      // Any request is refused when its URL holds control characters (refuseControlCharactersInUrl).
      responses['400'] ??= html
        ? { description: 'an HTML page saying what was wrong with the request', content: HTML_PAGE }
        : { description: 'validation_failed: the URL holds control characters' };
      for (const [status, response] of Object.entries(responses)) {
        const code = Number(status);
        if (typeof response.description !== 'string' || response.description.trim() === '') {
          response.description = STATUS_TEXT[status] ?? `HTTP ${status}`;
        }
        const headers: Record<string, unknown> = { 'X-Request-Id': ref('headers', 'XRequestId') };
        if (secured && code !== 401) {
          headers['X-RateLimit-Limit'] = ref('headers', 'XRateLimitLimit');
          headers['X-RateLimit-Remaining'] = ref('headers', 'XRateLimitRemaining');
          headers['X-RateLimit-Reset'] = ref('headers', 'XRateLimitReset');
        }
        if (code === 429) headers['Retry-After'] = ref('headers', 'RetryAfter');
        if (code === 401) headers['WWW-Authenticate'] = ref('headers', 'WwwAuthenticate');
        if (idempotent && code < 300) headers[IDEMPOTENT_REPLAYED_HEADER] = ref('headers', 'IdempotentReplayed');
        response.headers = { ...(isRecord(response.headers) ? response.headers : {}), ...headers };
        if (code >= 400 && isProblem(response.content)) {
          response.content = { 'application/problem+json': { schema: ref('schemas', 'ProblemDto') } };
        }
      }
    }
  }
  expandAmbiguousPaths(refined);
  return refined;
}

/** The OpenAPI document: every route, its permission and minimum role, the bearer scheme. */
function buildOpenApi(app: INestApplication, serverUrl: string): OpenAPIObject {
  const config = new DocumentBuilder()
    .setTitle('Accounting API')
    .setDescription(
      'Agents propose, reviewers verify, the system executes. Every /v1 route needs a gateway service ' +
        'token (RS256); each operation shows the permission group (x-permission) and minimum role ' +
        '(x-min-role) it needs. Errors are application/problem+json (RFC 9457).',
    )
    .setVersion('1')
    .addBearerAuth({ type: 'http', scheme: 'bearer', bearerFormat: 'JWT' }, 'gateway')
    .build();
  return refineOpenApi(SwaggerModule.createDocument(app, config), serverUrl);
}

export function mountOpenApi(app: INestApplication, serverUrl: string): void {
  const document = buildOpenApi(app, serverUrl);
  SwaggerModule.setup('docs', app, document, { jsonDocumentUrl: 'openapi.json', raw: ['json'] });
}
