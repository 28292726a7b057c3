// The code's boundaries, checked in CI (`npm run boundaries`). The README draws the context graph
// (`npm run boundaries:graph`).

/**
 * The contexts in dependency order, lowest first: a context imports only contexts of an earlier
 * step, so no two contexts can import each other, directly or around a loop. Contexts of one step
 * do not import each other. A lower context that must call back up (the ledger audit over card
 * and stablecoin accounts: src/contexts/ledger-audit.ts; execution gates: src/contexts/execution-gates.ts)
 * exposes an extension point that the higher one registers with.
 */
const CONTEXT_ORDER = [
  ['platforms'],
  ['webhooks'],
  ['ledger'],
  ['platform-setup'],
  ['wallet-auth'],
  ['customers'],
  ['sca'],
  ['directories'],
  ['external-accounts'],
  ['cards'],
  ['payments'],
  ['stablecoins', 'invitations', 'agents'],
  ['dashboard'],
];

const contextPath = (names) => `^src/contexts/(${names.join('|')})/`;

/** For each context: the contexts it must not import (those of its own step and every later one). */
const orderRules = CONTEXT_ORDER.flatMap((step, index) =>
  step.map((context) => {
    const above = [...step.filter((peer) => peer !== context), ...CONTEXT_ORDER.slice(index + 1).flat()];
    return {
      name: 'context-order',
      comment: 'A context imports only contexts of an earlier step of CONTEXT_ORDER (.dependency-cruiser.cjs): no cycles between contexts',
      severity: 'error',
      from: { path: `^src/contexts/${context}/` },
      to: { path: contextPath(above) },
    };
  }),
).filter((rule) => !rule.to.path.endsWith('()/'));

/** A context's HTTP layer (api/) is its own: routes are found at run time (src/contexts/discover.ts), never imported. */
const apiRules = CONTEXT_ORDER.flat().map((context) => ({
  name: 'api-stays-in-its-context',
  comment: "A context's api/ is imported only inside that context (routes are found at run time)",
  severity: 'error',
  from: { path: '^(src|activities|worker|workflows)/', pathNot: `^src/contexts/${context}/` },
  to: { path: `^src/contexts/${context}/api/` },
}));

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment:
        'No import cycle anywhere in production code (src, workflows, activities, worker), type-only imports included: each file is read after the files it needs, and the engine plumbing (src/temporal) needs no context',
      severity: 'error',
      from: { path: '^(src|workflows|activities|worker)/' },
      to: { circular: true },
    },
    ...orderRules,
    {
      name: 'context-face-only',
      comment: 'A context uses another only through its public face, src/contexts/<context>/index.ts; never its api/, services/, domain/ or entities/ files',
      severity: 'error',
      from: { path: '^src/contexts/([^/]+)/' },
      to: { path: '^src/contexts/[^/]+/.+', pathNot: ['^src/contexts/$1/', '^src/contexts/[^/]+/index\\.ts$'] },
    },
    ...apiRules,
    {
      name: 'services-not-http',
      comment: 'Services, rules and entities know nothing of HTTP: they never import src/api (what they share with it lives in src/domain or their context)',
      severity: 'error',
      from: { path: '^src/contexts/[^/]+/(services|domain|entities|gates)/' },
      to: { path: '^src/api/' },
    },
    {
      name: 'workflow-purity',
      comment:
        'Workflow code is replayed: besides types it imports only @temporalio/workflow, other workflow code and pure rules (src/domain, a context domain/, the search attribute keys, the task queue names, the versioning behaviours, the workflow kinds)',
      severity: 'error',
      from: { path: '^workflows/' },
      to: {
        dependencyTypesNot: ['type-only'],
        pathNot: [
          '^workflows/',
          '^node_modules/@temporalio/(workflow|common)/',
          '^src/domain/',
          '^src/contexts/[^/]+/domain/',
          '^src/temporal/search-attributes\\.ts$',
          '^src/temporal/task-queues\\.ts$',
          '^src/temporal/versioning-behaviours\\.ts$',
          '^src/temporal/workflow-kind\\.ts$',
        ],
      },
    },
    {
      name: 'face-not-api',
      comment:
        "A context's face (index.ts) never re-exports from its api/ (private: routes are found at run time); what other contexts share of its HTTP shapes lives in its schemas/",
      severity: 'error',
      from: { path: '^src/contexts/[^/]+/index\\.ts$' },
      to: { path: '^src/contexts/[^/]+/api/' },
    },
    {
      name: 'domain-stays-pure',
      comment:
        "A context's domain/ holds pure rules: at run time it imports no context's face nor any services (which load the database and the engine); a rule shared by contexts lives in src/domain, data a rule needs is passed in (type-only imports are fine)",
      severity: 'error',
      from: { path: '^src/contexts/[^/]+/domain/' },
      to: {
        dependencyTypesNot: ['type-only'],
        path: ['^src/contexts/[^/]+/index\\.ts$', '^src/contexts/[^/]+/services/', '^src/services/'],
      },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)(node_modules|dist|\\.data)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    reporterOptions: {
      dot: {
        collapsePattern: '^src/contexts/[^/]+',
      },
    },
  },
};
