import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { execFileSync } from 'node:child_process';
import { startTestApp, type TestApp } from './support/test-app';

describe('the OpenAPI document', () => {
  let t: TestApp;
  let file: string;

  beforeAll(async () => {
    t = await startTestApp();
    const document = (await t.http.get('/openapi.json')).body;
    file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'openapi-')), 'openapi.json');
    fs.writeFileSync(file, JSON.stringify(document, null, 2));
    if (process.env.OPENAPI_DUMP) fs.copyFileSync(file, process.env.OPENAPI_DUMP);
  });
  afterAll(async () => t.close());

  it('passes Redocly lint (recommended) with no error and no warning', () => {
    let out = '';
    try {
      out = execFileSync(
        require.resolve('@redocly/cli/bin/cli.js'),
        ['lint', '--extends=recommended', '--format=json', file],
        {
          encoding: 'utf8',
        },
      );
    } catch (error) {
      out = (error as { stdout: string }).stdout;
    }
    const problems = JSON.parse(out).problems as Array<{ ruleId: string; severity: string; message: string }>;
    expect(problems.map((p) => `${p.severity} ${p.ruleId}: ${p.message}`)).toEqual([]);
  });
});
