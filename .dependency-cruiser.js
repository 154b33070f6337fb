/**
 * The hexagon's boundaries (HOUSE-STYLE "The domain"):
 * domain → nothing; application → domain; adapters (persistence, providers, vault,
 * notifications) → domain (+ application); apps → everything. Libs import each other only
 * through their public index (the @app/* aliases), never deep paths; no orphan modules.
 */
const ADAPTERS = '^libs/(persistence|providers|vault|notifications)/';
module.exports = {
  forbidden: [
    {
      name: 'domain-is-pure',
      comment: 'libs/domain imports no framework, no ORM, no validation/swagger, no node I/O, no other lib.',
      severity: 'error',
      from: { path: '^libs/domain/src', pathNot: '\\.spec\\.ts$' },
      to: {
        path: [
          '^node_modules/(@nestjs|typeorm|class-validator|class-transformer|pg|express|@electric-sql|jsonwebtoken)',
          '^libs/(?!domain/)',
          '^apps/',
        ],
      },
    },
    {
      name: 'domain-no-node-io',
      severity: 'error',
      from: { path: '^libs/domain/src', pathNot: '\\.spec\\.ts$' },
      to: { dependencyTypes: ['core'], path: '^(fs|net|http|https|child_process|crypto|os|path|dgram|tls|node:.*)$' },
    },
    {
      name: 'application-only-domain',
      severity: 'error',
      from: { path: '^libs/application/src', pathNot: '\\.spec\\.ts$' },
      to: { path: ['^libs/(?!(application|domain)/)', '^apps/', '^node_modules/(typeorm|pg|express|@electric-sql)'] },
    },
    {
      name: 'adapters-not-apps',
      severity: 'error',
      from: { path: ADAPTERS, pathNot: '\\.spec\\.ts$|/testing/' },
      to: { path: '^apps/' },
    },
    {
      name: 'adapters-not-each-other',
      comment:
        'Adapters depend on ports, not on other adapters (persistence may use notifications/vault types to implement their ports).',
      severity: 'error',
      from: { path: '^libs/(providers|vault|notifications)/', pathNot: '\\.spec\\.ts$|/testing/' },
      to: { path: '^libs/(persistence|providers|vault|notifications)/', pathNot: '^libs/$1/' },
    },
    {
      name: 'no-testing-in-production',
      comment:
        'Production code never imports the test kit: only specs, contract suites and libs/testing itself may ' +
        '(a folder named testing/ inside a production lib or app is production code too).',
      severity: 'error',
      from: { path: '^(libs|apps)/', pathNot: ['\\.spec\\.ts$', '\\.contract\\.ts$', '^libs/testing/'] },
      to: { path: '^libs/testing/' },
    },
    {
      name: 'no-deep-imports-between-libs',
      comment:
        'A lib reaches another lib only through its public index (the @app/* aliases), never into its src/. ' +
        'libs/testing is where the test doubles and contract suites of every lib are gathered, so it may.',
      severity: 'error',
      from: { path: '^libs/([^/]+)/', pathNot: '^libs/testing/' },
      to: { path: '^libs/[^/]+/src/', pathNot: ['^libs/$1/', '^libs/[^/]+/src/index\\.ts$'] },
    },
    {
      name: 'no-deep-imports-from-apps',
      comment: 'The apps use the libs through their public index (the @app/* aliases), never a path into src/.',
      severity: 'error',
      from: { path: '^apps/' },
      to: { path: '^libs/[^/]+/src/', pathNot: '^libs/[^/]+/src/index\\.ts$' },
    },
    {
      name: 'no-orphans',
      comment:
        'A module nothing imports and that imports nothing is dead code (or a leftover). Browser assets are served, not imported.',
      severity: 'error',
      from: { orphan: true, pathNot: ['\\.d\\.ts$', '/assets/'] },
      to: {},
    },
    {
      name: 'no-circular',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^dist/|\\.d\\.ts$)' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default'] },
  },
};
