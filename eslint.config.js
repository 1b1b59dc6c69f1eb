import js from '@eslint/js';
import importX from 'eslint-plugin-import-x';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: [
      'dist',
      'data',
      'node_modules',
      'test-results',
      'playwright-report',
      '.e2e-data',
      'src/server/db/migrations',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    plugins: { 'react-hooks': reactHooks, 'import-x': importX },
    rules: {
      ...reactHooks.configs.recommended.rules,
      'import-x/no-duplicates': 'error',
      'import-x/no-cycle': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-restricted-imports': 'off',
    },
  },
  {
    // Dependencies flow one way: the client never reaches into the server, nor the server into the client.
    files: ['src/client/**'],
    rules: { 'no-restricted-imports': ['error', { patterns: ['**/server/**'] }] },
  },
  {
    files: ['src/server/**', 'src/shared/**'],
    rules: { 'no-restricted-imports': ['error', { patterns: ['**/client/**', '@/*'] }] },
  },
);
