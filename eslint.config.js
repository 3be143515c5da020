import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/', 'node_modules/', 'data/', 'coverage/', '*.config.js', '*.config.ts'] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: {
        projectService: { allowDefaultProject: ['scripts/*.mjs', 'bin/*.mjs'] },
        tsconfigRootDir: import.meta.dirname,
      },
    },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-explicit-any': 'error',
    },
  },
  {
    // The web app (src/web) compiles with its own settings: DOM, JSX, bundler resolution.
    files: ['src/web/**/*.ts', 'src/web/**/*.tsx'],
    languageOptions: {
      parserOptions: { projectService: false, project: ['./tsconfig.web.json'], tsconfigRootDir: import.meta.dirname },
    },
  },
  ...boundaries(),
  {
    files: ['src/web/**/*.ts', 'src/web/**/*.tsx'],
    ...reactHooks.configs.flat.recommended,
  },
  {
    // Tests read JSON bodies whose shape the assertions themselves check.
    files: ['**/*.test.ts', 'test/**/*.ts', 'bench/**/*.ts', 'e2e/**/*.ts'],
    rules: {
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/no-non-null-assertion': 'off',
    },
  },
);

/*
 * Boundaries as code (DESIGN.md): who may build queries and who may import whom.
 * Each rule names the boundary in its message, so a failing lint says which way to go.
 */
export function boundaries() {
  const tests = ['**/*.test.ts', '**/*.test.tsx', 'test/**', 'bench/**', 'e2e/**'];
  const queryHomes = ['**/*.repository.ts', 'src/server/db/**', 'src/server/access/**'];
  const core = ['events', 'realtime', 'db', 'http', 'jobs'].map((dir) => `src/server/${dir}/**`);
  const routes = ['src/server/**/*.routes.ts'];

  const queryMessage =
    'Only *.repository.ts, src/server/db/** and src/server/access/** build queries: move this into a repository.';
  const queryBuilders = [
    'selectFrom',
    'selectNoFrom',
    'insertInto',
    'replaceInto',
    'updateTable',
    'deleteFrom',
    'mergeInto',
    'with',
    'withRecursive',
  ];
  const building = [
    ...queryBuilders.map((name) => ({
      selector: `CallExpression > MemberExpression.callee[property.name='${name}']`,
      message: queryMessage,
    })),
    // Kysely's `sql` template and hand-compiled queries: raw SQL is query building too.
    { selector: "ImportDeclaration[source.value='kysely'] ImportSpecifier[imported.name='sql']", message: queryMessage },
    {
      selector: "ImportDeclaration[source.value='kysely'] ImportSpecifier[imported.name='CompiledQuery']",
      message: queryMessage,
    },
    { selector: "ImportDeclaration[source.value='kysely'] ImportNamespaceSpecifier", message: queryMessage },
  ];

  const repositories = {
    regex: '\\.repository(\\.[jt]s)?$',
    message: 'Routes never import repositories: call the feature service, which owns the authorization and the write.',
  };
  const features = {
    regex: '(^|/)features/',
    message: 'Core (events, realtime, db, http, jobs) never imports features: expose a hook the feature registers in app.ts.',
  };
  const server = {
    regex: '(^|/)server(/|$)',
    message: 'The web app never imports server code: shared shapes live in src/shared.',
  };
  // access/ has one face, its index: level, policy and audience are its inside.
  const accessInside = {
    group: ['**/access/level.js', '**/access/policy.js', '**/access/audience.js'],
    message: 'Import the access rules from access/index.js.',
  };
  const restrict = (...patterns) => ['error', { patterns }];

  return [
    {
      files: ['src/**/*.ts'],
      ignores: [...queryHomes, ...tests],
      rules: { 'no-restricted-syntax': ['error', ...building] },
    },
    // no-restricted-imports takes the last matching block's options, so a file under two rules gets a block with both.
    {
      files: ['src/server/**/*.ts'],
      ignores: ['src/server/access/**'],
      rules: { 'no-restricted-imports': restrict(accessInside) },
    },
    { files: routes, ignores: tests, rules: { 'no-restricted-imports': restrict(accessInside, repositories) } },
    { files: core, ignores: tests, rules: { 'no-restricted-imports': restrict(accessInside, features) } },
    {
      files: core.map((glob) => `${glob}/*.routes.ts`),
      ignores: tests,
      rules: { 'no-restricted-imports': restrict(accessInside, features, repositories) },
    },
    { files: ['src/web/**'], ignores: tests, rules: { 'no-restricted-imports': restrict(server) } },
  ];
}
