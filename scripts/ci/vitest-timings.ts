import { appendFileSync } from 'node:fs';
import { relative } from 'node:path';
import type { Reporter, TestCase, TestModule } from 'vitest/node';

/**
 * A Vitest reporter for CI (.ci/run): with CI_REPORT set, it appends one JSON line per test file to that file (its
 * wall time from environment set-up to its last test, and which tests passed only on a retry, with what their failed
 * try said), labelled with CI_REPORT_LABEL (which run it was: PGlite, PostgreSQL...). scripts/ci/summary.mjs prints
 * the slowest files and every flaky test from it. Without CI_REPORT it does nothing.
 */
/**
 * What a flaky test's first failed try said, and where (its first line in a test file), so the CI summary shows why it
 * failed: the retry's pass prints nothing of it otherwise.
 */
function firstFailure(test: TestCase): string {
  const error = test.result().errors?.[0];
  if (!error) return '';
  const message = (error.message ?? '').split('\n')[0]!.slice(0, 300);
  const at = (error.stack ?? '').split('\n').find((line) => /\.test\.tsx?:\d+/.test(line));
  return `: ${message}${at ? ` at ${at.trim().replace(/^at /, '')}` : ''}`;
}

export default class CiTimings implements Reporter {
  onTestRunEnd(modules: readonly TestModule[]) {
    const out = process.env.CI_REPORT;
    if (!out) return;
    const label = process.env.CI_REPORT_LABEL ?? 'vitest';
    const lines = modules.map((module) => {
      const d = module.diagnostic();
      const flaky = [...module.children.allTests()]
        .filter((test) => test.diagnostic()?.flaky)
        .map((test) => `${test.fullName} (passed on retry ${test.diagnostic()?.retryCount})${firstFailure(test)}`);
      const ms = d.environmentSetupDuration + d.prepareDuration + d.collectDuration + d.setupDuration + d.duration;
      return JSON.stringify({
        run: label,
        file: `${module.project.name}: ${relative(process.cwd(), module.moduleId)}`,
        ms: Math.round(ms),
        tests: [...module.children.allTests()].length,
        flaky,
      });
    });
    if (lines.length) appendFileSync(out, `${lines.join('\n')}\n`);
  }
}
