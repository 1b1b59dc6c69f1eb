import { appendFileSync } from 'node:fs';
import { relative } from 'node:path';
import type { Reporter, TestModule } from 'vitest/node';

/**
 * A Vitest reporter for CI (.ci/run): with CI_REPORT set, it appends one JSON line per test file to that file (its
 * wall time from environment set-up to its last test, and which tests passed only on a retry), labelled with
 * CI_REPORT_LABEL (which run it was: PGlite, PostgreSQL...). scripts/ci/summary.mjs prints the slowest files and
 * every flaky test from it. Without CI_REPORT it does nothing.
 */
export default class CiTimings implements Reporter {
  onTestRunEnd(modules: readonly TestModule[]) {
    const out = process.env.CI_REPORT;
    if (!out) return;
    const label = process.env.CI_REPORT_LABEL ?? 'vitest';
    const lines = modules.map((module) => {
      const d = module.diagnostic();
      const flaky = [...module.children.allTests()]
        .filter((test) => test.diagnostic()?.flaky)
        .map((test) => `${test.fullName} (passed on retry ${test.diagnostic()?.retryCount})`);
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
