import reactHooks from 'eslint-plugin-react-hooks';
import simpleImportSort from 'eslint-plugin-simple-import-sort';
import tseslint from 'typescript-eslint';

import foreignKeys from './eslint-rules/foreign-keys.mjs';

const layer = (files, patterns, message) => ({
  files,
  rules: {
    'no-restricted-imports': ['error', { patterns: [{ group: patterns, message }] }],
  },
});

export default tseslint.config(
  {
    ignores: [
      'out/**',
      'dist/**',
      'release/**',
      'node_modules/**',
      'bench/results/**',
      'test-results/**',
      '.conformance/**',
      'test/fixtures/.built/**',
    ],
  },
  ...tseslint.configs.recommended,
  // Imports in one order everywhere (packages, then ours by distance), fixed by `eslint --fix`: a diff shows what was
  // added, not a shuffle.
  {
    plugins: { 'simple-import-sort': simpleImportSort },
    rules: {
      // Stylesheets last, as they were: their order in the bundle is the cascade's, and the window's own styles
      // (main.tsx) come after the components' ones.
      'simple-import-sort/imports': ['error', { groups: [['^node:'], ['^@?\\w'], ['^'], ['^\\.'], ['^\\u0000']] }],
      'simple-import-sort/exports': 'error',
    },
  },
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-require-imports': 'off',
    },
  },
  // Effects and hooks checked as React's own rules say (a missing dependency is a stale-UI bug).
  {
    files: ['src/renderer/**/*.{ts,tsx}', 'test/renderer/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    // No React Compiler here: its note about libraries it cannot memoize (TanStack Virtual) says nothing to us.
    rules: {
      ...reactHooks.configs.flat['recommended-latest'].rules,
      'react-hooks/exhaustive-deps': 'error',
      'react-hooks/incompatible-library': 'off',
    },
  },
  // Names from outside are keys into Maps or null-prototype records (eslint-rules/foreign-keys.mjs says what it
  // catches and what it cannot). With type information, for the code that ships.
  {
    files: ['src/**/*.{ts,tsx}'],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    plugins: { 'foreign-keys': foreignKeys },
    rules: {
      'foreign-keys/no-inherited-lookup': 'error',
      // A promise nobody awaits or catches loses its rejection (an unhandled rejection ends a headless run);
      // one dropped on purpose says so with `void` and a comment why.
      '@typescript-eslint/no-floating-promises': 'error',
      // A promise where a plain value is expected (an `if`, a listener that must not be async) is a bug that type-checks.
      '@typescript-eslint/no-misused-promises': 'error',
    },
  },
  // The layering of docs/ARCHITECTURE.md, enforced: arrows point down only.
  layer(
    ['src/main/core/**'],
    ['electron', 'electron/*', '**/main/electron/**', '**/renderer/**', '**/preload/**', '**/cli/**'],
    'The engine runs headless: it must not import Electron, the UI or the CLI.',
  ),
  layer(
    ['src/cli/**'],
    ['electron', 'electron/*', '**/main/electron/**', '**/renderer/**', '**/preload/**'],
    'The CLI runs headless: it must not import Electron or the UI.',
  ),
  layer(
    ['src/main/electron/**', 'src/main/index.ts'],
    ['**/cli/**', '**/renderer/**'],
    'The desktop shell builds on the engine, never on the CLI (what both need lives in src/main/core) or the UI.',
  ),
  layer(
    ['src/shared/**'],
    ['electron', '**/main/**', '**/renderer/**', '**/preload/**', 'node:*'],
    'src/shared is the contract: it imports nothing of ours and no Node or Electron API.',
  ),
  layer(
    ['src/renderer/**'],
    ['electron', '**/main/**', '**/preload/**', 'node:*'],
    'The renderer talks only to the BridgeApi client it is given.',
  ),
);
