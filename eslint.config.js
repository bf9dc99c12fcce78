import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import prettier from 'eslint-config-prettier';
import css from '@eslint/css';
import lookups from './lint/no-plain-object-lookup.js';

const CODE = ['**/*.{js,mjs,cjs,ts,mts,cts}'];

export default tseslint.config(
  { ignores: ['dist/', 'node_modules/', 'data/', '.tmp/', 'packages/*/dist/', '.stryker-tmp/', 'reports/'] },
  // Code: JavaScript and TypeScript. The style sheet below is another language, with its own rules.
  { ...js.configs.recommended, files: CODE },
  ...tseslint.configs.recommended.map((config) => ({ ...config, files: config.files ?? CODE })),
  {
    files: CODE,
    languageOptions: {
      globals: {
        process: 'readonly',
        console: 'readonly',
        Buffer: 'readonly',
        setTimeout: 'readonly',
        clearTimeout: 'readonly',
        URL: 'readonly',
      },
    },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
      'no-constant-condition': ['error', { checkLoops: false }],
    },
  },
  {
    // Names from outside (URLs, bodies, files) never index a plain object: docs/security.md, "Lookups by name".
    files: ['src/**/*.ts'],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    plugins: { airorder: lookups },
    rules: { 'airorder/no-plain-object-lookup': 'error' },
  },
  {
    // The console's script (src/console/assets/), run by the browser as a classic script, not by Node.
    files: ['src/console/assets/**/*.js'],
    languageOptions: {
      sourceType: 'script',
      globals: {
        window: 'readonly',
        document: 'readonly',
        fetch: 'readonly',
        setTimeout: 'readonly',
        process: 'off',
        Buffer: 'off',
      },
    },
  },
  {
    // CommonJS preloads (node --require): the mutation run's coverage hook for child processes.
    files: ['**/*.cjs'],
    languageOptions: { sourceType: 'commonjs', globals: { require: 'readonly', __filename: 'readonly' } },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    // Tests (and the chaos run) read response bodies as untyped JSON on purpose: they check the wire, not our types.
    files: ['test/**/*.ts', 'packages/*/test/**/*.ts', 'scripts/chaos/**/*.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    // The console's style sheet (src/console/assets/console.css): CSS that parses, known properties and values.
    files: ['**/*.css'],
    plugins: { css },
    language: 'css/css',
    extends: [css.configs.recommended],
    rules: {
      // Browsers without the system's monospace font fall back to the next one in the list.
      'css/use-baseline': ['error', { allowPropertyValues: { 'font-family': ['ui-monospace'] } }],
    },
  },
  // Layout is Prettier's (`npm run format`); ESLint keeps to what code means.
  { ...prettier, files: CODE },
);
