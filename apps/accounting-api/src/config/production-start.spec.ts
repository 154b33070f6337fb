import { spawn } from 'node:child_process';
import * as path from 'node:path';

const ROOT = path.join(__dirname, '../../../..');

/** Runs an entry point of the service as its own process; resolves with its exit code and stderr. */
function run(
  entry: string,
  args: string[],
  env: Record<string, string>,
): Promise<{ code: number | null; stderr: string }> {
  const child = spawn(
    process.execPath,
    ['-r', path.join(ROOT, 'test/support/swc-register.js'), path.join(ROOT, entry), ...args],
    { env: { PATH: process.env.PATH ?? '', ...env }, stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve) => child.once('exit', (code) => resolve({ code, stderr })));
}

const EVERY_PRODUCTION_REQUIREMENT = [
  'DATABASE_URL is required when NODE_ENV=production',
  'GATEWAY_JWKS is required when NODE_ENV=production',
  'GATEWAY_AUDIENCE is required when NODE_ENV=production',
  'KEK_SOURCE is required when NODE_ENV=production',
  'STATE_SECRET is required when NODE_ENV=production',
  'WEBHOOK_SIGNING_KEY is required when NODE_ENV=production',
  'provider credentials are required when NODE_ENV=production',
];

describe('starting in production with development defaults', () => {
  it('the service refuses with exit status 78, listing every missing item at once', async () => {
    const { code, stderr } = await run('apps/accounting-api/src/main.ts', [], { NODE_ENV: 'production' });
    expect(code).toBe(78);
    for (const problem of EVERY_PRODUCTION_REQUIREMENT) expect(stderr).toContain(problem);
  });

  it('the CLI refuses the same way', async () => {
    const { code, stderr } = await run('apps/accounting-api/src/cli.ts', ['company', 'list'], {
      NODE_ENV: 'production',
      GATEWAY_JWKS: 'http://gateway.example/jwks.json',
    });
    expect(code).toBe(78);
    expect(stderr).toContain('GATEWAY_JWKS must be an https URL or a file');
    expect(stderr).toContain('KEK_SOURCE is required when NODE_ENV=production');
  });
});
