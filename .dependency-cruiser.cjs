/**
 * Layering of src/ as docs/architecture.md describes it, and no import circles in src/, test/, eval/,
 * bench/ or scripts/, checked by dependency-cruiser (`npm run lint:layers`, also a suite of `npm test`).
 * Type-only imports count too.
 */
const ENGINE = '^src/core/(?!api/)';

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-cycles',
      comment: 'No import circles anywhere: src/, and the tests, evaluations, benchmarks and scripts around it (type-only imports included).',
      severity: 'error',
      from: { path: '^(src|test|eval|bench|scripts)/' },
      to: { circular: true },
    },
    {
      name: 'engines-below-api-table',
      comment:
        'src/core/api/table.ts and invoke.ts are the composition root: they import the engines, never the reverse. ' +
        'An engine that calls another operation gets run.invoke / run.operations (src/core/common/operation.ts).',
      severity: 'error',
      from: { path: ENGINE },
      to: { path: '^src/core/api/' },
    },
    {
      name: 'store-knows-no-engine',
      comment: 'The store opens the database and applies the migrations it is handed (src/core/context.ts hands them in).',
      severity: 'error',
      from: { path: '^src/core/store/' },
      to: { path: '^src/', pathNot: '^src/core/(store|common)/' },
    },
    {
      name: 'embed-not-app',
      comment: 'The embedding engine sits below app/ (app.info reports its status, not the other way round).',
      severity: 'error',
      from: { path: '^src/core/embed/' },
      to: { path: '^src/core/app/' },
    },
    {
      name: 'common-is-a-leaf',
      comment: 'src/core/common holds contracts and helpers every engine uses; it imports no engine (types of the context excepted).',
      severity: 'error',
      from: { path: '^src/core/common/' },
      to: { path: '^src/', pathNot: ['^src/core/common/', '^src/core/context\\.ts$'] },
    },
    {
      name: 'core-never-electron',
      comment: 'src/core runs in plain Node (CLI, MCP, browser shell); only src/main and src/preload talk to Electron.',
      severity: 'error',
      from: { path: '^src/core/' },
      to: { path: '(^|/)node_modules/electron/|^electron$' },
    },
    {
      name: 'core-never-adapters',
      comment: 'The core does not know its adapters (CLI, MCP, web bridge, Electron main/preload, renderer).',
      severity: 'error',
      from: { path: '^src/core/' },
      to: { path: '^src/(cli|mcp|web|main|preload|renderer)/' },
    },
    {
      name: 'renderer-imports-core-types-only',
      comment: 'The renderer runs in a browser: it may only `import type` from the core and talks to it through the API.',
      severity: 'error',
      from: { path: '^src/renderer/' },
      // vocabulary data files (JSON, no code) are shared so labels come from one table
      to: { path: '^src/(core|cli|mcp|web|main)/', pathNot: '^src/core/[^/]+/vocab/[^/]+[.]json$', dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'preload-imports-core-types-only',
      comment: 'The sandboxed preload exposes the API over IPC; it uses the core only for types.',
      severity: 'error',
      from: { path: '^src/preload/' },
      to: { path: '^src/(core|cli|mcp|web|main|renderer)/', dependencyTypesNot: ['type-only'] },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)(out|dist|node_modules)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      extensions: ['.ts', '.tsx', '.mjs', '.js', '.cjs', '.json'],
    },
    reporterOptions: { text: { highlightFocused: true } },
  },
};
