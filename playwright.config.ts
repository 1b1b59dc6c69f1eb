import { defineConfig, devices } from '@playwright/test';
import { E2E_DATA_DIR } from './e2e/shared-server';

const PORT = Number(process.env.E2E_PORT ?? 3100);

/**
 * End-to-end in Debian's Chromium (`npx playwright install` cannot download here). The app is built and started
 * on a fresh embedded database for each run.
 */
export default defineConfig({
  testDir: 'e2e',
  fullyParallel: true,
  // The suite keeps both cores busy (measured: 97% with three workers, no faster than two).
  workers: 2,
  retries: process.env.CI ? 1 : 0,
  timeout: 30_000,
  expect: { timeout: 7_000 },
  // In CI a JSON report too, for the slowest files and the flaky tests (scripts/ci/summary.mjs); the list reporter
  // names a test that passed only on its retry as flaky.
  reporter: process.env.PLAYWRIGHT_JSON_OUTPUT_FILE
    ? [['list'], ['json', { outputFile: process.env.PLAYWRIGHT_JSON_OUTPUT_FILE }]]
    : [['list']],
  use: {
    baseURL: `http://localhost:${PORT}`,
    // Recording a trace costs about a third of a test's time (lifecycle.spec: 64 s with one for every test, 47 s
    // without), so only a retry records one: a test that fails in CI leaves the trace of its second try.
    trace: 'on-first-retry',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-dev-shm-usage',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
  },
  projects: [{ name: 'chromium', use: { ...devices['Desktop Chrome'] } }],
  webServer: {
    command: `rm -rf ${E2E_DATA_DIR} && npm start`,
    env: { DATA_DIR: E2E_DATA_DIR, PORT: String(PORT), AUTH_PER_IP_MAX: '10000', NODE_ENV: 'production' },
    url: `http://localhost:${PORT}/api/health`,
    reuseExistingServer: !process.env.CI,
    timeout: 180_000,
    stdout: 'pipe',
  },
});
