/**
 * The tiers of `lib/`, checked by `npm run lint:tiers` (dependency-cruiser). A folder imports only
 * from folders before it in this list: its own tier's earlier folders and the tiers beneath. So no
 * import climbs a tier and no two folders can import each other. Nor may files or folders form a
 * cycle anywhere in `app/`, `components/`, `lib/` or the sandbox. docs/architecture.md describes
 * the tiers.
 *
 * `.dependency-cruiser-known-violations.json` lists imports known to climb, and is empty: a new
 * climb fails the check rather than joining the list.
 */
const TIERS = [
  ['platform', ['platform', 'db', 'queue', 'outcomes']],
  ['the service', ['service']],
  ['core records', ['readings', 'activity', 'auth', 'members', 'portfolio', 'access']],
  [
    'features',
    [
      'schedule',
      'comfort',
      'settings',
      'runs',
      'bulk',
      'templates',
      'units',
      'attention',
      'groups',
      'notifications',
    ],
  ],
  ['views and jobs', ['activity-log', 'api', 'jobs']],
];

const literal = (name) => name.replace(/[.*+?^${}()|[\]\\-]/g, '\\$&');
/** `lib/<name>/…` or `lib/<name>.ts`. */
const unit = (names) => `^lib/(?:${names.map(literal).join('|')})(?:/|\\.tsx?$)`;

const order = TIERS.flatMap(([tier, names]) => names.map((name) => ({ tier, name })));
const climbs = order.slice(0, -1).map(({ tier, name }, index) => {
  const above = order.slice(index + 1);
  return {
    name: `${name}-climbs`,
    comment: `lib/${name} (${tier}) imports only what comes before it in .dependency-cruiser.cjs`,
    severity: 'error',
    from: { path: unit([name]) },
    to: { path: unit(above.map((entry) => entry.name)) },
  };
});

module.exports = {
  forbidden: [
    ...climbs,
    {
      name: 'no-cycle',
      comment: 'A cycle of files makes load order matter and hides which module owns what.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    {
      name: 'no-folder-cycle',
      comment:
        'A cycle of folders (a component importing its page’s actions while the page imports the component) hides which folder owns what: pass the action down from the page instead.',
      scope: 'folder',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    {
      name: 'lib-below-the-pages',
      comment: 'The domain does not depend on its pages or their components.',
      severity: 'error',
      from: { path: '^lib/' },
      to: { path: '^(app|components)/' },
    },
    {
      name: 'pages-call-features',
      comment: 'Pages, actions and components call features, which own their data; not lib/db.',
      severity: 'error',
      from: { path: '^(app|components)/' },
      to: { path: '^lib/db/' },
    },
    {
      name: 'every-lib-file-has-a-tier',
      comment: 'A new folder or loose file in lib/ takes its place in TIERS first.',
      severity: 'error',
      from: {
        path: '^lib/',
        pathNot: `${unit(order.map((entry) => entry.name))}|^lib/.*\\.d\\.ts$`,
      },
      to: {},
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)(node_modules|\\.next|migrations)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.tsx', '.js', '.mjs', '.cjs', '.json'] },
    baseline: { staleEntriesSeverity: 'error' },
  },
};
