/**
 * Resolves the `@app/*` path aliases of tsconfig.json where jest's moduleNameMapper does not reach:
 * the global setup (which runs the migrations) and spawned child processes.
 */
const path = require('node:path');
const Module = require('node:module');

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
