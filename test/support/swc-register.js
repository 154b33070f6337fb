/**
 * A minimal TypeScript loader for child processes of the tests (jest transpiles with @swc/jest; a
 * spawned `node` does not): compiles .ts with @swc/core as jest does and resolves the `@app/*`
 * path aliases of tsconfig.json.
 *
 * Compiled files are kept in a cache keyed by the source's content (under the OS's temporary
 * directory, or SWC_REGISTER_CACHE), so that the crash tests' many short-lived children compile
 * the service once, not once each.
 */
const crypto = require('node:crypto');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const swc = require('@swc/core');

require('./module-aliases');

// Node 22.1+ keeps V8's compiled code of the modules it loads (node_modules included) on disk and
// reuses it in the next child: about a fifth of a child's loading CPU. Older Node has no such cache.
require('node:module').enableCompileCache?.(path.join(os.tmpdir(), 'acct-node-compile-cache'));

const OPTIONS = {
  sourceMaps: 'inline',
  jsc: {
    parser: { syntax: 'typescript', decorators: true },
    transform: { legacyDecorator: true, decoratorMetadata: true },
    target: 'es2022',
  },
  module: { type: 'commonjs' },
};
const cacheDir = process.env.SWC_REGISTER_CACHE ?? path.join(os.tmpdir(), `acct-swc-register-${swc.version}`);
fs.mkdirSync(cacheDir, { recursive: true });

function compile(source, filename) {
  const key = crypto.createHash('sha256').update(filename).update('\0').update(source).digest('hex');
  const cached = path.join(cacheDir, `${key}.js`);
  try {
    return fs.readFileSync(cached, 'utf8');
  } catch {
    const { code } = swc.transformSync(source, { ...OPTIONS, filename });
    // Written whole under a temporary name, then renamed: a concurrent child never reads half a file.
    const partial = `${cached}.${process.pid}.tmp`;
    fs.writeFileSync(partial, code);
    fs.renameSync(partial, cached);
    return code;
  }
}

require.extensions['.ts'] = (module, filename) => {
  module._compile(compile(fs.readFileSync(filename, 'utf8'), filename), filename);
};
