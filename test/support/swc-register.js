/**
 * A minimal TypeScript loader for child processes of the tests (jest transpiles with @swc/jest; a
 * spawned `node` does not): compiles .ts with @swc/core as jest does and resolves the `@app/*`
 * path aliases of tsconfig.json.
 */
const fs = require('node:fs');
const swc = require('@swc/core');

require('./module-aliases');

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
