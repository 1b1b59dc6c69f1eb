import { availableParallelism } from 'node:os';
import react from '@vitejs/plugin-react';
import { configDefaults, defineConfig } from 'vitest/config';

/**
 * Five projects (decision 026): `db` holds every test whose database matters (`*.api.test.ts` through the app,
 * `*.db.test.ts` on the database itself); CI runs it on PGlite and again on real PostgreSQL. `unit`, `client`,
 * `client-isolated` and `cluster` run once. Every database test file starts from a migrated template (server/test/database-template.ts).
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
/**
 * Client tests share their worker's modules and jsdom too (2:46 -> 0:47 for the client suite: most of a file's time
 * was importing React, radix and the app again and setting up a new jsdom). src/client/test/setup.ts puts back, after
 * each file, what a file may change: stubbed globals, spies, timers, storage, the document. A file that mocks a
 * module or loads modules afresh (vi.mock, vi.doMock, vi.resetModules) is named `*.isolated.test.ts(x)` and runs in
 * a fresh module graph of its own; src/client/test/isolation.test.ts fails when one is not.
 */
const ISOLATED_CLIENT_TESTS = 'src/client/**/*.isolated.test.{ts,tsx}';
const clientTests = { environment: 'jsdom' as const, setupFiles: ['src/client/test/setup.ts'] };

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
          ...clientTests,
          include: ['src/client/**/*.test.{ts,tsx}'],
          exclude: [...configDefaults.exclude, ISOLATED_CLIENT_TESTS],
          isolate: false,
        },
      },
      {
        extends: true,
        plugins: [react()],
        test: { name: 'client-isolated', ...clientTests, include: [ISOLATED_CLIENT_TESTS] },
      },
    ],
  },
});
