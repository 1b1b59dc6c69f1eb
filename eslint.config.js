import { readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import js from '@eslint/js';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import importX from 'eslint-plugin-import-x';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

// The boundaries below are explained in docs/decisions/015-layer-boundaries-and-domain-errors.md.

const root = path.dirname(fileURLToPath(import.meta.url));
const subfolders = (dir) =>
  readdirSync(path.join(root, dir), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name);

/** Server folders that are layers every feature builds on; every other folder of src/server is a feature. */
const SERVER_LAYERS = ['core', 'db', 'http', 'test'];
const serverFeatures = subfolders('src/server').filter((name) => !SERVER_LAYERS.includes(name));
const clientFeatures = subfolders('src/client/features');

/** A feature reaches another feature only through that feature's public module, its index.ts. */
const featureZones = (base, features) =>
  features
    .map((feature) => ({
      target: `${base}/${feature}`,
      from: features.filter((other) => other !== feature).map((other) => `${base}/${other}`),
      except: ['index.ts', 'index.tsx'],
      message: 'A feature imports another feature only through its public module (<feature>/index.ts).',
    }))
    .filter((zone) => zone.from.length > 0);

const server = (folder) => `src/server/${folder}`;

/** Every source file, tests included. */
const sideZones = [
  {
    target: 'src/client',
    from: 'src/server',
    message: 'The client never imports the server; share through src/shared.',
  },
  {
    target: 'src/server',
    from: 'src/client',
    message: 'The server never imports the client; share through src/shared.',
  },
  {
    target: 'src/shared',
    from: ['src/client', 'src/server'],
    message: 'src/shared is isomorphic: it imports neither the client nor the server.',
  },
];

/** Source files other than tests: tests may set up and inspect any module. */
const layerZones = [
  ...sideZones,
  ...featureZones('src/server', serverFeatures),
  ...featureZones('src/client/features', clientFeatures),
  {
    target: server('core'),
    from: [server('db'), server('http'), ...serverFeatures.map(server)],
    message: 'core/ is the bottom server layer: it imports only src/shared.',
  },
  {
    target: server('db'),
    from: [server('http'), ...serverFeatures.map(server)],
    message: 'db/ sits under the features and knows nothing of HTTP.',
  },
  {
    target: server('http'),
    from: serverFeatures.map(server),
    message: 'http/ is plumbing the features build on: it never imports a feature (shared types live in core/).',
  },
];

/** Server modules that are not HTTP-facing: services and other domain modules, db/, core/, env. */
const domainZones = [
  ...layerZones,
  {
    target: 'src/server',
    from: server('http'),
    message:
      'Only HTTP-facing files (app.ts, main.ts, <feature>/routes.ts, <feature>/middleware.ts) import http/; ' +
      'a service throws DomainError (core/domain-error.ts) and never knows a status.',
  },
];

const restrictedPaths = (zones) => ['error', { basePath: root, zones }];

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
    settings: {
      // Without .ts/.tsx here import-x skips those files when following imports, and no-cycle sees no cycle.
      'import-x/extensions': ['.ts', '.tsx', '.js', '.jsx', '.mjs', '.cjs'],
      'import-x/resolver-next': [createTypeScriptImportResolver({ project: path.join(root, 'tsconfig.json') })],
    },
    rules: {
      ...reactHooks.configs.recommended.rules,
      'import-x/no-duplicates': 'error',
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  // Later blocks match fewer files and repeat the earlier zones: a rule's options are replaced, not merged.
  {
    files: ['src/**/*.{ts,tsx}'],
    rules: { 'import-x/no-restricted-paths': restrictedPaths(sideZones) },
  },
  {
    files: ['src/**/*.{ts,tsx}'],
    ignores: ['**/*.test.{ts,tsx}', 'src/server/test/**', 'src/client/test/**'],
    rules: { 'import-x/no-restricted-paths': restrictedPaths(layerZones) },
  },
  {
    files: ['src/server/**/*.ts'],
    ignores: [
      'src/server/app.ts',
      'src/server/app-*.ts',
      'src/server/main.ts',
      'src/server/http/**',
      'src/server/*/routes.ts',
      'src/server/*/*-routes.ts',
      'src/server/*/middleware.ts',
      '**/*.test.ts',
      'src/server/test/**',
    ],
    rules: {
      'import-x/no-restricted-paths': restrictedPaths(domainZones),
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['hono', 'hono/*', '@hono/*'],
              message: 'Only HTTP-facing files use Hono; a service throws DomainError (core/domain-error.ts).',
            },
          ],
        },
      ],
    },
  },
);
