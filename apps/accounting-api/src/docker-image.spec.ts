import * as fs from 'node:fs';
import * as path from 'node:path';
import ignore from '@balena/dockerignore';

/**
 * The image's build context and Dockerfile, checked without a Docker engine: the context is
 * computed from .dockerignore with @balena/dockerignore (Docker's own matching rules, ported from
 * its Go code) over the repository as it lies on disk, so also over what a developer's machine
 * holds beside the tracked files (node_modules, dist, data/ with its keys, .env).
 */
const ROOT = path.join(__dirname, '../../..');
const dockerignore = ignore().add(fs.readFileSync(path.join(ROOT, '.dockerignore'), 'utf8'));
const inContext = (file: string) => !dockerignore.ignores(file);
/** The `!` patterns: an excluded folder is walked only when one of them could let a file under it back in, as Docker does. */
const exceptions = fs
  .readFileSync(path.join(ROOT, '.dockerignore'), 'utf8')
  .split('\n')
  .map((line) => line.trim())
  .filter((line) => line.startsWith('!'))
  .map((line) => line.slice(1).replace(/^\//, ''));
const mayLetBackIn = (dir: string) =>
  exceptions.some((pattern) => pattern.startsWith(`${dir}/`) || pattern.startsWith('**'));

/** Every file Docker would send as the build context. */
function contextFiles(dir = ''): string[] {
  const files: string[] = [];
  for (const entry of fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true })) {
    const file = dir ? `${dir}/${entry.name}` : entry.name;
    if (entry.isDirectory()) {
      if (!inContext(file) && !mayLetBackIn(file)) continue;
      files.push(...contextFiles(file));
    } else if (inContext(file)) {
      files.push(file);
    }
  }
  return files;
}

/** The Dockerfile's instructions, continuation lines joined, comments dropped. */
function instructions(): string[] {
  const text = fs.readFileSync(path.join(ROOT, 'Dockerfile'), 'utf8').replace(/\\\r?\n/g, ' ');
  return text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'));
}

/** The sources the Dockerfile copies from the build context (not `--from` another stage). */
function copiedSources(): string[] {
  return instructions()
    .filter((line) => /^COPY\s/i.test(line) && !/--from=/i.test(line))
    .flatMap((line) => line.split(/\s+/).slice(1, -1))
    .filter((word) => !word.startsWith('--'))
    .map((source) => source.replace(/\/$/, ''));
}

describe('the Docker image', () => {
  const files = contextFiles();

  it('leaves out of the build context what the host has installed, built or keeps secret', () => {
    // Present here or not (a fresh clone has no data/), none of these may ever be sent.
    for (const file of [
      'node_modules/express/package.json',
      'dist/apps/accounting-api/src/main.js',
      'data/keyring.json',
      'data/state-secret',
      'data/webhook-signing-key',
      'data/dev-keys/private.json',
      'data/pgdata/PG_VERSION',
      '.env',
      '.env.production',
      '.git/HEAD',
      'coverage/lcov.info',
      'bench/results/run.json',
      'gateway.pem',
      'apps/accounting-api/src/gateway.pem',
      'apps/accounting-api/data/keyring.json',
      'apps/accounting-api/src/keyring.json',
      'libs/vault/src/server.key',
      'libs/vault/node_modules/x/index.js',
      'apps/accounting-api/.env',
    ]) {
      expect([file, inContext(file)]).toEqual([file, false]);
    }
    const forbidden =
      /(^|\/)(node_modules|dist|data|coverage|\.git|dev-keys|pgdata)\/|(^|\/)\.env|\.(pem|key|p12)$|(^|\/)(keyring[^/]*\.json|state-secret|webhook-signing-key|pg-password)$/;
    expect(files.filter((file) => forbidden.test(file))).toEqual([]);
    expect(files.filter((file) => file.startsWith('test/') || file.startsWith('bench/'))).toEqual([]);
  });

  it('sends everything the Dockerfile copies, and the whole source the build compiles', () => {
    const sources = copiedSources();
    expect(sources).toEqual(expect.arrayContaining(['package.json', 'package-lock.json', 'apps', 'libs']));
    for (const source of sources) {
      const sent = files.some((file) => file === source || file.startsWith(`${source}/`));
      expect([source, sent]).toEqual([source, true]);
    }
    expect(files).toContain('apps/accounting-api/src/main.ts');
    expect(files).toContain('apps/accounting-api/src/cli.ts');
    expect(files).toContain('tsconfig.build.json');
    // The console's static files are copied into dist by the build.
    expect(files.some((file) => file.startsWith('apps/accounting-api/src/console/assets/'))).toBe(true);
  });

  it('installs with npm ci, builds in a stage of its own and runs as an unprivileged user with a health check', () => {
    const lines = instructions();
    const stages = lines.filter((line) => /^FROM\s/i.test(line));
    expect(stages.length).toBeGreaterThanOrEqual(2);
    expect(lines.some((line) => /^RUN\s.*\bnpm ci\b/.test(line))).toBe(true);
    expect(lines.filter((line) => /\bnpm (install|i)\b/.test(line))).toEqual([]);
    expect(lines.filter((line) => /^COPY\s+(--\S+\s+)*\.\s/i.test(line))).toEqual([]);

    const runtime = lines.slice(lines.lastIndexOf(stages[stages.length - 1]));
    const users = runtime.filter((line) => /^USER\s/i.test(line)).map((line) => line.split(/\s+/)[1]);
    expect(users.length).toBeGreaterThan(0);
    expect(['root', '0', '0:0']).not.toContain(users[users.length - 1]);
    expect(runtime.some((line) => /^HEALTHCHECK\s.*\/health\/live/i.test(line))).toBe(true);
    // The runtime stage takes the build's output, not the host's files.
    expect(runtime.filter((line) => /^COPY\s/i.test(line) && !/--from=/i.test(line))).toEqual([]);
  });
});
