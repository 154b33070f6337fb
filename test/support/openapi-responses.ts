import * as fs from 'node:fs';
import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';

/*
 * Every response a test receives through the test app's supertest agent is checked against the
 * service's own /openapi.json: the status must be documented for the operation, the media type
 * must be the documented one, the body must match the documented schema and the headers marked
 * required must be there. A mismatch fails the test that produced it (test-app.ts's afterEach).
 */

interface MediaType {
  schema?: unknown;
}
interface HeaderObject {
  required?: boolean;
  $ref?: string;
}
interface ResponseObject {
  $ref?: string;
  content?: Record<string, MediaType>;
  headers?: Record<string, HeaderObject>;
}
interface Operation {
  responses?: Record<string, ResponseObject>;
}
export interface OpenApiDocument {
  paths: Record<string, Record<string, Operation>>;
  components?: { responses?: Record<string, ResponseObject>; headers?: Record<string, HeaderObject> };
}

interface Route {
  method: string;
  template: string;
  pattern: RegExp;
  /** Literal segments: a literal path wins over a templated one (`/patterns/suggestions` over `/patterns/{id}`). */
  literals: number;
  pointer: string;
}

export interface ObservedResponse {
  method: string;
  url: string;
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: unknown;
  text?: string;
}

const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options'];

/** A JSON pointer segment, percent-encoded for use in a $ref's fragment. */
function escapePointer(segment: string): string {
  return encodeURIComponent(segment.replace(/~/g, '~0').replace(/\//g, '~1'));
}

function resolve<T extends { $ref?: string }>(document: OpenApiDocument, value: T): T {
  if (typeof value?.$ref !== 'string') return value;
  const target = value.$ref
    .replace(/^#\//, '')
    .split('/')
    .reduce<unknown>(
      (node, key) =>
        (node as Record<string, unknown>)?.[decodeURIComponent(key).replace(/~1/g, '/').replace(/~0/g, '~')],
      document,
    );
  return target as T;
}

export class OpenApiResponseChecker {
  private readonly ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: true });
  private readonly routes: Route[];
  private readonly validators = new Map<string, ValidateFunction>();

  constructor(
    private readonly document: OpenApiDocument,
    /** Path prefixes served by test-only controllers (probes): not part of the API. */
    private readonly ignoredPrefixes: string[] = [],
  ) {
    addFormats(this.ajv);
    this.ajv.addSchema(document as object, 'openapi.json');
    this.routes = Object.entries(document.paths).flatMap(([template, item]) =>
      Object.keys(item)
        .filter((method) => METHODS.includes(method))
        .map((method) => {
          const segments = template.split('/');
          const pattern = new RegExp(
            `^${segments.map((s) => (/^\{.+\}$/.test(s) ? '[^/]+' : s.replace(/[.*+?^$()|[\]\\]/g, '\\$&'))).join('/')}$`,
          );
          return {
            method,
            template,
            pattern,
            literals: segments.filter((s) => !/^\{.+\}$/.test(s)).length,
            pointer: `#/paths/${escapePointer(template)}/${method}`,
          };
        }),
    );
  }

  /** The mismatches of one response with the document; none when it documents no such operation. */
  check(observed: ObservedResponse): string[] {
    const pathname = new URL(observed.url, 'http://localhost').pathname;
    if (this.ignoredPrefixes.some((prefix) => pathname.startsWith(prefix))) return [];
    const method = observed.method.toLowerCase();
    const route = this.routes
      .filter((r) => r.method === method && r.pattern.test(pathname))
      .sort((a, b) => b.literals - a.literals)[0];
    if (route === undefined) return [];
    const where = `${observed.method.toUpperCase()} ${route.template} → ${observed.status}`;
    const operation = this.document.paths[route.template][method];
    const responses = operation.responses ?? {};
    const status = String(observed.status);
    const key = [status, `${status[0]}XX`, 'default'].find((k) => responses[k] !== undefined);
    if (key === undefined)
      return [`${where}: status not documented (documented: ${Object.keys(responses).join(', ')})`];
    const response = resolve(this.document, responses[key]);
    const problems: string[] = [];
    for (const [name, header] of Object.entries(response.headers ?? {})) {
      if (resolve(this.document, header).required && observed.headers[name.toLowerCase()] === undefined) {
        problems.push(`${where}: required header ${name} missing`);
      }
    }
    const content = response.content ?? {};
    const contentType = String(observed.headers['content-type'] ?? '')
      .split(';')[0]
      .trim();
    const bodyless = observed.status === 204 || observed.status === 304 || method === 'head';
    if (Object.keys(content).length === 0) {
      if (!bodyless && (observed.text ?? '').length > 0 && contentType !== '') {
        problems.push(`${where}: documents no body, got ${contentType}`);
      }
      return problems;
    }
    const mediaKey = Object.keys(content).find((m) => m === contentType || m === '*/*');
    if (mediaKey === undefined) {
      return [
        ...problems,
        `${where}: content-type ${contentType || '(none)'}, documented ${Object.keys(content).join(', ')}`,
      ];
    }
    const schema = content[mediaKey].schema;
    if (schema === undefined || !/json/.test(mediaKey)) return problems;
    const pointer = `openapi.json${route.pointer}/responses/${escapePointer(key)}/content/${escapePointer(mediaKey)}/schema`;
    const refPointer = responses[key].$ref
      ? `openapi.json${responses[key].$ref}/content/${escapePointer(mediaKey)}/schema`
      : pointer;
    let validate = this.validators.get(refPointer);
    if (validate === undefined) {
      validate = this.ajv.compile({ $ref: refPointer });
      this.validators.set(refPointer, validate);
    }
    if (!validate(observed.body)) {
      for (const error of validate.errors ?? []) {
        problems.push(`${where}: body${error.instancePath} ${error.message} (${error.schemaPath})`);
      }
    }
    return problems;
  }
}

const found: string[] = [];

/** Records a mismatch for the running test to fail on (and, with OPENAPI_MISMATCH_LOG set, in that file). */
export function recordMismatches(mismatches: string[]): void {
  if (mismatches.length === 0) return;
  found.push(...mismatches);
  const log = process.env.OPENAPI_MISMATCH_LOG;
  if (log) fs.appendFileSync(log, mismatches.map((m) => `${m}\n`).join(''));
}

/** The mismatches recorded since the last call. */
export function takeMismatches(): string[] {
  return found.splice(0, found.length);
}
