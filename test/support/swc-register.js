/**
 * A minimal TypeScript loader for child processes of the tests (jest transpiles with @swc/jest; a
 * spawned `node` does not): compiles .ts with @swc/core as jest does and resolves the `@app/*`
 * path aliases of tsconfig.json.
 */
const fs = require('node:fs');
const path = require('node:path');
const Module = require('node:module');
const swc = require('@swc/core');

const root = path.resolve(__dirname, '..', '..');
const aliases = {
  '@app/domain': 'libs/domain/src',
  '@app/application': 'libs/application/src',
  '@app/persistence': 'libs/persistence/src',
  '@app/providers': 'libs/providers/src',
  '@app/vault': 'libs/vault/src',
  '@app/notifications': 'libs/notifications/src',
  '@app/testing': 'libs/testing/src',
  '@app/sandbox': 'apps/provider-sandbox/src',
};

const resolve = Module._resolveFilename;
Module._resolveFilename = function (request, parent, ...rest) {
  const target = aliases[request];
  return resolve.call(this, target ? path.join(root, target) : request, parent, ...rest);
};

require.extensions['.ts'] = (module, filename) => {
  const { code } = swc.transformSync(fs.readFileSync(filename, 'utf8'), {
    filename,
    sourceMaps: 'inline',
    jsc: {
      parser: { syntax: 'typescript', decorators: true },
      transform: { legacyDecorator: true, decoratorMetadata: true },
      target: 'es2022',
    },
    module: { type: 'commonjs' },
  });
  module._compile(code, filename);
};
