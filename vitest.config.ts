import { availableParallelism } from 'node:os';
import react from '@vitejs/plugin-react';
import { configDefaults, defineConfig } from 'vitest/config';

/**
 * Four projects (decision 026): `db` holds every test whose database matters (`*.api.test.ts` through the app,
 * `*.db.test.ts` on the database itself); CI runs it on PGlite and again on real PostgreSQL. `unit`, `client` and
 * `cluster` run once. Every database test file starts from a migrated template (server/test/database-template.ts).
 */
const templateSetup = ['src/server/test/database-template.ts'];
/**
 * Server test files share their worker's modules (no re-import of the whole app for every file: the database suite
 * runs in half the time). They may: the server keeps no state in its modules (every app, database and cache is
 * made by a test's own createApp/createTestDatabase), and no server test mocks a module. Files still run one at a
 * time in a worker. Client tests stay isolated: they mock modules and load their globals first. The long timeouts
 * are for a cold file on 2 cores (argon2, a database start), not timing assertions.
 */
const serverTests = { environment: 'node', isolate: false, testTimeout: 30_000, hookTimeout: 60_000 } as const;
const DB_TESTS = ['src/**/*.api.test.ts', 'src/**/*.db.test.ts', 'bench/**/*.db.test.ts'];

export default defineConfig({
  resolve: {
    alias: {
      '@shared': new URL('./src/shared', import.meta.url).pathname,
      '@': new URL('./src/client', import.meta.url).pathname,
    },
  },
  test: {
    // Vitest's default leaves a core idle here (cores - 1 = one worker on 2 cores), while a test file spends much of
    // its time waiting on its database, the mail sink or a child process.
    maxWorkers: Math.max(2, availableParallelism()),
    // In CI a test that fails once is run again, and one that then passes is named as flaky at the end of the run
    // (scripts/ci/vitest-timings.ts): a flake is reported and fixed, never hidden.
    retry: process.env.CI ? 1 : 0,
    reporters: process.env.CI_REPORT ? ['default', './scripts/ci/vitest-timings.ts'] : ['default'],
    projects: [
      {
        extends: true,
        test: {
          name: 'db',
          ...serverTests,
          include: DB_TESTS,
          globalSetup: templateSetup,
        },
      },
      {
        extends: true,
        test: {
          name: 'unit',
          ...serverTests,
          include: ['src/server/**/*.test.ts', 'src/shared/**/*.test.ts', 'bench/**/*.test.ts'],
          exclude: [...configDefaults.exclude, ...DB_TESTS, '**/*.cluster.test.ts'],
          globalSetup: templateSetup,
        },
      },
      {
        extends: true,
        test: {
          // Against running instances behind a proxy: scripts/with-cluster.sh starts them (skipped without it).
          name: 'cluster',
          environment: 'node',
          include: ['src/**/*.cluster.test.ts'],
          testTimeout: 30_000,
          // One file, one test at a time: the round robin then alternates predictably between the instances.
          fileParallelism: false,
        },
      },
      {
        extends: true,
        plugins: [react()],
        test: {
          name: 'client',
          environment: 'jsdom',
          include: ['src/client/**/*.test.{ts,tsx}'],
          setupFiles: ['src/client/test/setup.ts'],
        },
      },
    ],
  },
});
