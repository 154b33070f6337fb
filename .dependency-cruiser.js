/**
 * The hexagon's boundaries (HOUSE-STYLE "The domain"):
 * domain → nothing; application → domain; adapters (persistence, providers, vault,
 * notifications) → domain (+ application); apps → everything. Libs import each other only
 * through their public index (the @app/* aliases), never deep paths.
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
          '^node_modules/(@nestjs|typeorm|class-validator|class-transformer|pg|express|@electric-sql|jose|jsonwebtoken)',
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
      from: { path: '^libs/application/src', pathNot: '\\.spec\\.ts$|/testing/' },
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
      severity: 'error',
      from: { path: '^(libs|apps)/', pathNot: '\\.spec\\.ts$|\\.contract\\.ts$|/testing/' },
      to: { path: '^libs/testing/' },
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
