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
        projectService: { allowDefaultProject: ['scripts/*.mjs'] },
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
  {
    // access/ has one face, its index: level.ts, policy.ts and audience.ts are its inside.
    files: ['src/server/**/*.ts'],
    ignores: ['src/server/access/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/access/level.js', '**/access/policy.js', '**/access/audience.js'],
              message: 'Import the access rules from access/index.js.',
            },
          ],
        },
      ],
    },
  },
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
