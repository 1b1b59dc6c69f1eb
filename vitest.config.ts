import react from '@vitejs/plugin-react';
import { configDefaults, defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: { alias: { '@': new URL('./src/client', import.meta.url).pathname } },
  test: {
    projects: [
      {
        extends: true,
        test: {
          name: 'server',
          environment: 'node',
          include: ['src/server/**/*.test.ts', 'src/shared/**/*.test.ts', 'bench/**/*.test.ts'],
          exclude: [...configDefaults.exclude, '**/*.cluster.test.ts'],
          // argon2 and PGlite start-up make a cold file slow on 2 cores; these are not timing assertions.
          testTimeout: 30_000,
          hookTimeout: 60_000,
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
