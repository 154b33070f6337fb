import Ajv, { type ErrorObject, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import type { ExchangeBody, ProviderName, SandboxExchange } from '@app/sandbox';
import { definitionOf, type OpenApiDocument } from './definitions';

type Json = Record<string, unknown>;

interface Parameter {
  readonly name: string;
  readonly in: 'query' | 'path' | 'header' | 'cookie';
  readonly required?: boolean;
  readonly schema?: Json;
}

interface Operation {
  readonly method: string;
  readonly template: string;
  readonly operationId: string;
  readonly pattern: RegExp;
  readonly pathParams: string[];
  readonly parameters: Parameter[];
  readonly raw: Json;
}

const METHODS = ['get', 'put', 'post', 'delete', 'patch'];

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A JSON pointer into the document as a `$ref` fragment (`/` → `~1`, then URI-encoded). */
function pointer(segments: string[]): string {
  return `#/${segments.map((s) => encodeURIComponent(s.replace(/~/g, '~0').replace(/\//g, '~1'))).join('/')}`;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * What one provider's published OpenAPI definition says about a request and its answer: the
 * operation (path template + method), its declared query and path parameters (required, enums,
 * types), its JSON and multipart bodies (validated with ajv against the operation's schema, with
 * `readOnly` properties refused in requests and `writeOnly` ones in answers), and the schema of a
 * successful answer. Schemas are compiled on first use, one per operation.
 */
export class OpenApiContract {
  private readonly document: OpenApiDocument;
  private readonly operations: Operation[] = [];
  private readonly requestAjv: Ajv;
  private readonly responseAjv: Ajv;
  private readonly compiled = new Map<string, ValidateFunction>();

  constructor(readonly provider: ProviderName) {
    this.document = definitionOf(provider);
    for (const [template, item] of Object.entries(this.document.paths)) {
      const shared = (Array.isArray(item.parameters) ? item.parameters : []).map((p) => this.resolve(p) as Parameter);
      for (const method of METHODS) {
        const raw = item[method];
        if (!isObject(raw)) continue;
        const own = (Array.isArray(raw.parameters) ? raw.parameters : []).map((p) => this.resolve(p) as Parameter);
        const parameters = [...shared.filter((s) => !own.some((o) => o.name === s.name && o.in === s.in)), ...own];
        const pathParams: string[] = [];
        const source = template
          .split(/(\{[^}]+\})/)
          .map((part) => {
            const param = /^\{([^}]+)\}$/.exec(part);
            if (!param) return escapeRegExp(part);
            pathParams.push(param[1]);
            return '([^/]+)';
          })
          .join('');
        this.operations.push({
          method: method.toUpperCase(),
          template,
          operationId: typeof raw.operationId === 'string' ? raw.operationId : `${method} ${template}`,
          pattern: new RegExp(`^${source}$`),
          pathParams,
          parameters,
          raw,
        });
      }
    }
    // Literal paths first: `/ledger/voucher/>externalVoucherNumber` before `/ledger/voucher/{id}`.
    this.operations.sort((a, b) => a.pathParams.length - b.pathParams.length);
    this.requestAjv = this.makeAjv('readOnly');
    this.responseAjv = this.makeAjv('writeOnly');
  }

  /** The operation a method and path name, or undefined when the definition has none. */
  operation(method: string, path: string): { operation: Operation; params: Record<string, string> } | undefined {
    for (const operation of this.operations) {
      if (operation.method !== method) continue;
      const match = operation.pattern.exec(path);
      if (!match) continue;
      const params = Object.fromEntries(operation.pathParams.map((name, i) => [name, match[i + 1]]));
      return { operation, params };
    }
    return undefined;
  }

  /** Every way the request breaks the definition (empty when it conforms). */
  checkRequest(exchange: SandboxExchange): string[] {
    const found = this.operation(exchange.method, exchange.path);
    if (!found) return [`no operation ${exchange.method} ${exchange.path} in the ${this.provider} definition`];
    const { operation, params } = found;
    const problems: string[] = [];
    for (const [name, value] of Object.entries(params)) {
      const declared = operation.parameters.find((p) => p.in === 'path' && p.name === name);
      if (declared) problems.push(...this.checkValue(`path parameter ${name}`, declared.schema, value));
    }
    const names = new Set(exchange.query.keys());
    for (const name of names) {
      const declared = operation.parameters.find((p) => p.in === 'query' && p.name === name);
      if (!declared) {
        problems.push(`query parameter ${name} is not declared by ${operation.operationId}`);
        continue;
      }
      const values = exchange.query.getAll(name);
      if (values.length > 1 && this.schemaOf(declared.schema).type !== 'array') {
        problems.push(`query parameter ${name} is sent ${values.length} times`);
      }
      for (const value of values) problems.push(...this.checkValue(`query parameter ${name}`, declared.schema, value));
    }
    for (const required of operation.parameters.filter((p) => p.in === 'query' && p.required === true)) {
      if (!names.has(required.name)) problems.push(`required query parameter ${required.name} is missing`);
    }
    problems.push(...this.checkRequestBody(operation, exchange));
    return problems.map((p) => `${this.provider} ${operation.operationId} (${exchange.method} ${exchange.path}): ${p}`);
  }

  /**
   * Every way an answer breaks the definition: a success against the operation's response schema
   * and declared headers; a Tripletex refusal against its error envelope (`ApiError`). Fiken
   * publishes no error schema.
   */
  checkResponse(exchange: SandboxExchange): string[] {
    const found = this.operation(exchange.method, exchange.path);
    if (!found) return [];
    const { operation } = found;
    const problems: string[] = [];
    if (exchange.status >= 400) {
      if (this.provider === 'tripletex') {
        problems.push(
          ...this.validate('response', ['components', 'schemas', 'ApiError'], withoutNulls(exchange.responseBody)),
        );
        const status = isObject(exchange.responseBody) ? exchange.responseBody.status : undefined;
        if (status !== exchange.status)
          problems.push(`error envelope says status ${String(status)} on a ${exchange.status}`);
      }
      return problems.map((p) => `${this.provider} ${operation.operationId} refusal ${exchange.status}: ${p}`);
    }
    const responses = isObject(operation.raw.responses) ? operation.raw.responses : {};
    const key = String(exchange.status) in responses ? String(exchange.status) : 'default';
    const response = this.resolve(responses[key]);
    if (!isObject(response)) {
      return [
        `${this.provider} ${operation.operationId} answered ${exchange.status}, which the definition does not declare`,
      ];
    }
    const content = isObject(response.content) ? response.content : {};
    const media = Object.keys(content).find((type) => type.startsWith('application/json'));
    if (media) {
      const path = [
        'paths',
        operation.template,
        operation.method.toLowerCase(),
        'responses',
        key,
        'content',
        media,
        'schema',
      ];
      if (exchange.responseBody === undefined) problems.push(`answer ${exchange.status} has no body`);
      else {
        const body = this.provider === 'tripletex' ? withoutNulls(exchange.responseBody) : exchange.responseBody;
        problems.push(...this.validate('response', path, body));
      }
    }
    for (const [header, declared] of Object.entries(isObject(response.headers) ? response.headers : {})) {
      const value = exchange.responseHeaders[header.toLowerCase()];
      if (value === undefined) {
        problems.push(`answer ${exchange.status} lacks the declared header ${header}`);
        continue;
      }
      const schema = isObject(declared) ? (declared.schema as Json | undefined) : undefined;
      problems.push(...this.checkValue(`header ${header}`, schema, String(value)));
    }
    return problems.map((p) => `${this.provider} ${operation.operationId} answer: ${p}`);
  }

  /** Validates a value against the schema at `refPath` in the document. */
  validate(mode: 'request' | 'response', refPath: string[], value: unknown): string[] {
    const ref = `${this.provider}${pointer(refPath)}`;
    const key = `${mode} ${ref}`;
    let validate = this.compiled.get(key);
    if (!validate) {
      validate = (mode === 'request' ? this.requestAjv : this.responseAjv).compile({ $ref: ref });
      this.compiled.set(key, validate);
    }
    if (validate(value)) return [];
    return (validate.errors ?? []).slice(0, 10).map(describeError);
  }

  private checkRequestBody(operation: Operation, exchange: SandboxExchange): string[] {
    const declared = this.resolve(operation.raw.requestBody);
    const body: ExchangeBody = exchange.requestBody;
    if (!isObject(declared)) {
      return body.kind === 'none' || body.kind === 'unread'
        ? []
        : [`${operation.operationId} declares no request body`];
    }
    if (body.kind === 'unread') return [];
    if (body.kind === 'none') return declared.required === true ? ['the required request body is missing'] : [];
    const content = isObject(declared.content) ? declared.content : {};
    const sentType = String(exchange.requestHeaders['content-type'] ?? '')
      .split(';')[0]
      .trim()
      .toLowerCase();
    const media = Object.keys(content).find((type) => type.split(';')[0].trim().toLowerCase() === sentType);
    if (!media) return [`content type ${sentType || '(none)'} is not one of ${Object.keys(content).join(', ')}`];
    const schemaPath = [
      'paths',
      operation.template,
      operation.method.toLowerCase(),
      'requestBody',
      'content',
      media,
      'schema',
    ];
    if (body.kind === 'json') return this.validate('request', schemaPath, body.value);
    if (body.kind === 'multipart') {
      const schema = this.schemaOf((content[media] as Json).schema as Json);
      const properties = isObject(schema.properties) ? schema.properties : {};
      const problems: string[] = [];
      const sent = new Set([...Object.keys(body.fields), ...body.files.map((f) => f.field)]);
      for (const name of sent) if (!(name in properties)) problems.push(`multipart field ${name} is not declared`);
      for (const name of Array.isArray(schema.required) ? (schema.required as string[]) : []) {
        if (!sent.has(name)) problems.push(`required multipart field ${name} is missing`);
      }
      for (const [name, value] of Object.entries(body.fields)) {
        if (name in properties)
          problems.push(...this.checkValue(`multipart field ${name}`, properties[name] as Json, value));
      }
      return problems;
    }
    return [`a ${body.kind} body where the definition expects ${media}`];
  }

  /** A query, path, header or form value (text on the wire) against its declared schema. */
  private checkValue(what: string, schema: Json | undefined, value: string): string[] {
    const s = this.schemaOf(schema);
    const problems: string[] = [];
    switch (s.type) {
      case 'integer':
        if (!/^-?\d+$/.test(value)) return [`${what}=${value} is not an integer`];
        break;
      case 'number':
        if (value.trim() === '' || !Number.isFinite(Number(value))) return [`${what}=${value} is not a number`];
        break;
      case 'boolean':
        if (value !== 'true' && value !== 'false') return [`${what}=${value} is not true or false`];
        break;
      default:
        break;
    }
    if ((s.type === 'integer' || s.type === 'number') && typeof s.minimum === 'number' && Number(value) < s.minimum) {
      problems.push(`${what}=${value} is below the minimum ${s.minimum}`);
    }
    if ((s.type === 'integer' || s.type === 'number') && typeof s.maximum === 'number' && Number(value) > s.maximum) {
      problems.push(`${what}=${value} is above the maximum ${s.maximum}`);
    }
    if (Array.isArray(s.enum) && !s.enum.map(String).includes(value)) {
      problems.push(`${what}=${value} is not one of ${s.enum.map((e) => JSON.stringify(e)).join(', ')}`);
    }
    if (s.format === 'date' && !/^\d{4}-\d{2}-\d{2}$/.test(value)) problems.push(`${what}=${value} is not a date`);
    if (typeof s.maxLength === 'number' && value.length > s.maxLength) {
      problems.push(`${what} is longer than ${s.maxLength} characters`);
    }
    if (typeof s.pattern === 'string' && !new RegExp(s.pattern, 'u').test(value)) {
      problems.push(`${what}=${value} does not match ${s.pattern}`);
    }
    return problems;
  }

  private schemaOf(schema: Json | undefined): Json {
    const resolved = this.resolve(schema);
    return isObject(resolved) ? resolved : {};
  }

  /** Follows local `$ref`s (`#/components/...`). */
  private resolve(value: unknown): unknown {
    let current = value;
    for (let depth = 0; isObject(current) && typeof current.$ref === 'string' && depth < 10; depth++) {
      const segments = current.$ref.replace(/^#\//, '').split('/');
      current = segments.reduce<unknown>(
        (node, segment) => (isObject(node) ? node[segment.replace(/~1/g, '/').replace(/~0/g, '~')] : undefined),
        this.document,
      );
    }
    return current;
  }

  private makeAjv(refused: 'readOnly' | 'writeOnly'): Ajv {
    const ajv = new Ajv({ strict: false, allErrors: true, validateSchema: false });
    addFormats(ajv);
    ajv.addFormat('int32', {
      type: 'number',
      validate: (n: number) => Number.isInteger(n) && n >= -(2 ** 31) && n < 2 ** 31,
    });
    ajv.addFormat('int64', { type: 'number', validate: (n: number) => Number.isInteger(n) });
    ajv.addFormat('float', { type: 'number', validate: () => true });
    ajv.addFormat('double', { type: 'number', validate: () => true });
    ajv.addFormat('binary', true);
    // OpenAPI: readOnly properties are not sent in requests, writeOnly ones never come back. Tripletex
    // marks whole resource types read-only (Currency) that requests still name by reference, `{id}`.
    ajv.removeKeyword(refused);
    ajv.addKeyword({
      keyword: refused,
      schemaType: 'boolean',
      validate: (flag: boolean, data: unknown) =>
        !flag || (refused === 'readOnly' && isObject(data) && Object.keys(data).join() === 'id'),
      error: { message: `must not be present (${refused})` },
    });
    ajv.addSchema(this.document as object, this.provider);
    return ajv;
  }
}

/** Tripletex answers `null` for every absent value (its envelope documentation says so) where its schemas declare none. */
function withoutNulls(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutNulls);
  if (!isObject(value)) return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([, v]) => v !== null)
      .map(([k, v]) => [k, withoutNulls(v)]),
  );
}

function describeError(error: ErrorObject): string {
  const where = error.instancePath === '' ? 'body' : error.instancePath;
  const params = error.keyword === 'additionalProperties' ? ` (${String(error.params.additionalProperty)})` : '';
  return `${where} ${error.message ?? error.keyword}${params}`;
}
