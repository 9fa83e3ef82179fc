/**
 * The direction of imports between the layers of src/ (docs/architecture.md). `npm run lint`
 * fails on any import that goes against it.
 */
const layer = (name) => `^src/${name}(/|\\.ts$)`

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'domain-only-lib',
      comment: 'domain/ holds the rules: it imports only lib/ and plain libraries, never a layer above it.',
      severity: 'error',
      from: { path: layer('domain') },
      to: { path: '^src/', pathNot: [layer('domain'), layer('lib')] },
    },
    {
      name: 'domain-no-frameworks',
      comment: 'domain/ knows neither HTTP nor SQL.',
      severity: 'error',
      from: { path: layer('domain') },
      to: {
        dependencyTypes: ['npm', 'npm-dev', 'npm-optional', 'npm-peer'],
        path: '(^|/)node_modules/(hono|@hono|drizzle-orm|@neondatabase|@electric-sql)/',
      },
    },
    {
      name: 'database-only-in-db',
      comment:
        'Drizzle and the database drivers are db/ business: every other folder reaches the database through db/queries (the runtime through db/ modules).',
      severity: 'error',
      from: { path: '^src/', pathNot: layer('db') },
      to: {
        dependencyTypes: ['npm', 'npm-dev', 'npm-optional', 'npm-peer'],
        path: '(^|/)node_modules/(drizzle-orm|@electric-sql|@neondatabase|postgres|pg)/',
      },
    },
    {
      name: 'db-only-domain-lib',
      comment: 'db/ holds the schema, drivers and queries: it knows the vocabulary (domain/) and lib/, nothing above.',
      severity: 'error',
      from: { path: layer('db') },
      to: { path: '^src/', pathNot: [layer('db'), layer('domain'), layer('lib')] },
    },
    {
      name: 'lib-only-lib',
      comment: 'lib/ is the bottom: plain helpers with no knowledge of the service.',
      severity: 'error',
      from: { path: layer('lib') },
      to: { path: '^src/', pathNot: layer('lib') },
    },
    {
      name: 'routes-above-services',
      comment:
        'A route handler reaches the queues, stores and networks through a service; what it shares with them (a callback contract, a record) is in domain/.',
      severity: 'error',
      from: { path: layer('routes') },
      to: {
        path: '^src/',
        pathNot: [layer('routes'), layer('schemas'), layer('http'), layer('services'), layer('domain'), layer('lib')],
      },
    },
    {
      name: 'mcp-no-db',
      comment: 'An MCP tool calls a service, as a route handler does; it never reaches the database itself.',
      severity: 'error',
      from: { path: layer('mcp') },
      to: { path: [layer('db'), layer('runtime'), layer('entry'), '(^|/)node_modules/drizzle-orm/'] },
    },
    {
      name: 'only-app-mounts-routes',
      comment:
        'Only app.ts mounts the routes: the MCP tools and the dashboard share their zod schemas through schemas/, never a route file.',
      severity: 'error',
      from: { path: '^src/', pathNot: [layer('routes'), '^src/app\\.ts$'] },
      to: { path: layer('routes') },
    },
    {
      name: 'schemas-neutral',
      comment:
        "schemas/ holds the API's zod schemas, shared by routes, MCP tools and dashboard: they build on the vocabulary and the services' types and limits, nothing that serves a request.",
      severity: 'error',
      from: { path: layer('schemas') },
      to: { path: '^src/', pathNot: [layer('schemas'), layer('domain'), layer('lib'), layer('services')] },
    },
    {
      name: 'only-app-mounts-mcp',
      comment: 'The MCP layer sits beside the routes: only app.ts mounts it, nothing below imports it.',
      severity: 'error',
      from: { path: '^src/', pathNot: [layer('mcp'), '^src/app\\.ts$'] },
      to: { path: layer('mcp') },
    },
    {
      name: 'dashboard-no-db',
      comment: 'A dashboard page calls the same services as the API; it never reaches the database itself.',
      severity: 'error',
      from: { path: layer('dashboard') },
      to: { path: [layer('db'), layer('runtime'), layer('entry'), '(^|/)node_modules/drizzle-orm/'] },
    },
    {
      name: 'dashboard-client-pure',
      comment:
        "The page scripts (src/dashboard/client/) run in the browser: besides each other they import only pure modules shared with the server, the rules and text counting of domain/ and lib/'s helpers (the composer's preview counts as validation does); never db/, services/, http/, infra/ or a page.",
      severity: 'error',
      from: { path: '^src/dashboard/client/' },
      to: { path: '^src/', pathNot: ['^src/dashboard/client/', layer('domain'), layer('lib')] },
    },
    {
      name: 'dashboard-client-no-node',
      comment: 'The page scripts run in the browser: no Node built-in (node:crypto, node:fs...).',
      severity: 'error',
      from: { path: '^src/dashboard/client/' },
      to: { dependencyTypes: ['core'] },
    },
    {
      name: 'only-app-mounts-dashboard',
      comment: 'The dashboard sits beside the routes: only app.ts mounts it, nothing below imports it.',
      severity: 'error',
      from: { path: '^src/', pathNot: [layer('dashboard'), '^src/app\\.ts$'] },
      to: { path: layer('dashboard') },
    },
    {
      name: 'http-below-app',
      comment:
        'http/ is the middleware and error mapping under app.ts: services, infra, domain, lib and the Deps type; never a route, the database or a page.',
      severity: 'error',
      from: { path: layer('http') },
      to: {
        path: '^src/',
        pathNot: [layer('http'), layer('services'), layer('infra'), layer('domain'), layer('lib'), '^src/deps\\.ts$'],
      },
    },
    {
      name: 'services-below-requests',
      comment:
        'Use cases work over db/queries, networks, infra, media, domain and lib; never the configuration, the runtime or what serves a request.',
      severity: 'error',
      from: { path: layer('services') },
      to: {
        path: '^src/',
        pathNot: [
          layer('services'),
          layer('db'),
          layer('networks'),
          layer('infra'),
          layer('media'),
          layer('domain'),
          layer('lib'),
          '^src/deps\\.ts$',
        ],
      },
    },
    {
      name: 'networks-below-services',
      comment:
        'Network adapters speak to networks: they build on domain/, the ports of infra/ and lib/; no database, no use cases, no configuration parsing.',
      severity: 'error',
      from: { path: layer('networks') },
      to: { path: '^src/', pathNot: [layer('networks'), layer('domain'), layer('infra'), layer('lib')] },
    },
    {
      name: 'config-at-the-top',
      comment:
        'The environment is read at the top (entry, runtime, CLI); everything below gets what it read through Deps.',
      severity: 'error',
      from: {
        path: '^src/',
        pathNot: [layer('entry'), layer('runtime'), layer('cli'), '^src/deps\\.ts$', '^src/config\\.ts$'],
      },
      to: { path: '^src/config\\.ts$' },
    },
    {
      name: 'services-no-http',
      comment: "Use cases know nothing of HTTP: errors are domain errors, the status is http/'s business.",
      severity: 'error',
      from: { path: layer('services') },
      to: { path: '(^|/)node_modules/(hono|@hono)/' },
    },
    {
      name: 'cli-no-db',
      comment:
        'The CLI calls services, like a route does: never a query, a table or drizzle (runtime/ opens the database).',
      severity: 'error',
      from: { path: layer('cli') },
      to: { path: [layer('db'), '(^|/)node_modules/drizzle-orm/'] },
    },
    {
      name: 'infra-media-no-app',
      comment:
        'Ports, their implementations and the media pipeline sit below the use cases, beside the database: a store over SQL is a db/queries module.',
      severity: 'error',
      from: { path: [layer('infra'), layer('media')] },
      to: { path: [layer('services'), layer('routes'), layer('http'), layer('db')] },
    },
    {
      name: 'client-no-server',
      comment: 'The typed client (clients/typescript/) ships to API users: it never imports server code.',
      severity: 'error',
      from: { path: '^clients/typescript/' },
      to: { path: '^(src|test)/' },
    },
    {
      name: 'no-circular',
      comment: 'Modules that import each other are one module in two files.',
      severity: 'error',
      from: { path: '^src/' },
      to: { circular: true, viaOnly: { dependencyTypesNot: ['type-only'] } },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
    },
  },
}
