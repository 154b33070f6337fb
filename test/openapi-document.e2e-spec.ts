import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { AddressInfo } from 'node:net';
import { execFileSync } from 'node:child_process';
import { startTestApp, type TestApp } from './support/test-app';
import { PEOPLE } from './support/proposals';
import { submitApproveAndReadEvents } from '../examples/typed-client/review-flow';

const ROOT = path.join(__dirname, '..');
const CLIENT_DIR = path.join(ROOT, 'examples/typed-client');
const CLIENT_TYPES = path.join(CLIENT_DIR, 'api.d.ts');

/** Runs a package's command-line tool; its output (also on failure) for the assertion. */
function run(bin: string, args: string[]): { status: number; output: string } {
  try {
    return { status: 0, output: execFileSync(process.execPath, [bin, ...args], { encoding: 'utf8', cwd: ROOT }) };
  } catch (error) {
    const failed = error as { status: number; stdout: string; stderr: string };
    return { status: failed.status, output: `${failed.stdout}${failed.stderr}` };
  }
}

/**
 * The document as integrators take it: Redocly's recommended rules, and a client generated from it
 * (openapi-typescript + openapi-fetch, examples/typed-client) that compiles with no cast and works.
 * `npm run openapi:lint` runs this file alone; `npm run openapi:types` rewrites the client's types.
 */
describe('the OpenAPI document', () => {
  let t: TestApp;
  let document: Record<string, unknown>;
  let file: string;

  beforeAll(async () => {
    t = await startTestApp({ env: { RATE_LIMIT_PER_MINUTE: '1000' } });
    document = (await t.http.get('/openapi.json')).body as Record<string, unknown>;
    file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'openapi-')), 'openapi.json');
    fs.writeFileSync(file, JSON.stringify(document, null, 2));
  });
  afterAll(async () => t.close());

  it('passes Redocly lint (recommended) with no error and no warning', () => {
    const { output } = run(require.resolve('@redocly/cli/bin/cli.js'), [
      'lint',
      '--extends=recommended',
      '--format=json',
      file,
    ]);
    const report = JSON.parse(output.slice(output.indexOf('{'), output.lastIndexOf('}') + 1)) as {
      problems: Array<{ ruleId: string; severity: string; message: string }>;
    };

    expect(report.problems.map((p) => `${p.severity} ${p.ruleId}: ${p.message}`)).toEqual([]);
  });

  it('declares what an integrator needs: 3.1, ids, errors as problem+json, headers, public operations', () => {
    const paths = document.paths as Record<
      string,
      Record<string, { operationId: string; responses: Record<string, unknown>; security?: unknown }>
    >;
    const operations = Object.values(paths).flatMap((item) => Object.values(item));
    const ids = operations.map((op) => op.operationId as string);

    expect(document.openapi).toBe('3.1.0');
    expect(ids).toEqual(expect.arrayContaining(['submitProposal', 'getProposal', 'listProposals', 'approveProposal']));
    expect(ids.every((id) => /^[a-z][a-zA-Z]+$/.test(id))).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
    const errorMedia = new Set<string>();
    for (const [where, item] of Object.entries(paths)) {
      for (const op of Object.values(item)) {
        const responses = op.responses as Record<string, { description: string; content?: object; headers: object }>;
        for (const [status, response] of Object.entries(responses)) {
          expect(response.description).toBeTruthy();
          expect(response.headers).toHaveProperty('X-Request-Id');
          // Health answers 503 with its own body; the OAuth callback's pages are HTML.
          if (Number(status) >= 400 && !where.startsWith('/health')) {
            Object.keys(response.content ?? {}).forEach((media) => errorMedia.add(media));
          }
        }
      }
    }
    expect([...errorMedia].sort()).toEqual(['application/problem+json', 'text/html']);
    expect(paths['/health/live'].get.security).toEqual([]);
    expect(paths['/v1/proposals'].post.responses['201']).toMatchObject({
      headers: { 'Idempotent-Replayed': expect.anything() },
    });
    expect(paths['/v1/proposals'].post.responses['429']).toMatchObject({
      headers: { 'Retry-After': expect.anything() },
    });
  });

  it('types nullable fields as what they are, or null', () => {
    const schemas = (document.components as { schemas: Record<string, { properties: Record<string, unknown> }> })
      .schemas;

    expect(schemas.SubmitProposalDto.properties.description).toMatchObject({ type: ['string', 'null'] });
    expect(schemas.EventDto.properties.confidence).toMatchObject({ type: ['number', 'null'] });
    expect(schemas.ProposalDto.properties.booking).toMatchObject({
      anyOf: [{ $ref: '#/components/schemas/BookingDto' }, { type: 'null' }],
    });
    expect(JSON.stringify(document)).not.toContain('"nullable"');
  });

  it('gives a typed client (examples/typed-client) that is up to date, compiles with no cast, and works', async () => {
    const generated = path.join(path.dirname(file), 'api.d.ts');
    const cli = run(path.join(path.dirname(require.resolve('openapi-typescript/package.json')), 'bin/cli.js'), [
      file,
      '--output',
      generated,
    ]);
    expect(cli.status).toBe(0);
    const types = fs.readFileSync(generated, 'utf8');
    if (process.env.OPENAPI_TYPES_WRITE) fs.writeFileSync(CLIENT_TYPES, types);
    // Out of date after an API change: `npm run openapi:types` regenerates it.
    expect(fs.readFileSync(CLIENT_TYPES, 'utf8')).toEqual(types);
    const source = fs.readFileSync(path.join(CLIENT_DIR, 'review-flow.ts'), 'utf8');
    expect(source).not.toMatch(/\bas\s+(unknown|any|[A-Z{[])|<any>|@ts-(ignore|expect-error)/);

    const tsc = run(require.resolve('typescript/bin/tsc'), ['-p', path.join(CLIENT_DIR, 'tsconfig.json')]);
    expect(tsc.output).toBe('');
    expect(tsc.status).toBe(0);

    await t.app.listen(0, '127.0.0.1');
    const { port } = t.app.getHttpServer().address() as AddressInfo;
    const result = await submitApproveAndReadEvents({
      baseUrl: `http://127.0.0.1:${port}`,
      employeeToken: t.token(PEOPLE.employee),
      accountantToken: t.token(PEOPLE.accountant),
    });

    expect(result.submitted).toMatchObject({ status: 'PROPOSED', submittedBy: PEOPLE.employee.sub });
    expect(result.approved).toMatchObject({
      id: result.submitted.id,
      status: 'APPROVED',
      approvedBy: PEOPLE.accountant.sub,
    });
    expect(result.events.map((e) => [e.type, e.status, e.actor])).toEqual([
      ['Proposed', 'PROPOSED', PEOPLE.employee.sub],
      ['Approved', 'APPROVED', PEOPLE.accountant.sub],
    ]);
  }, 240_000); // two command-line tools (openapi-typescript, tsc) on a shared machine
});
