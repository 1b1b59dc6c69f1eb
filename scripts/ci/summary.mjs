// Prints what .ci/run measured (issue 31): each step and its duration, the 15 slowest test files of every run
// (Vitest's through scripts/ci/vitest-timings.ts, Playwright's from its JSON report) and every test that passed only
// on a retry, named as flaky. Usage: node scripts/ci/summary.mjs <report dir>
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const dir = process.argv[2];
const lines = (file) =>
  existsSync(file)
    ? readFileSync(file, 'utf8')
        .split('\n')
        .filter((line) => line.trim() !== '')
    : [];
const seconds = (ms) => `${(ms / 1000).toFixed(1)} s`;
const clock = (s) => `${Math.floor(s / 60)}:${String(Math.round(s % 60)).padStart(2, '0')}`;

const steps = lines(join(dir, 'steps.tsv')).map((line) => {
  const [name, start, end] = line.split('\t');
  return { name, seconds: Number(end) - Number(start) };
});
console.log('\nCI steps');
console.log('| step | duration |\n| --- | ---: |');
for (const step of steps) console.log(`| ${step.name} | ${clock(step.seconds)} |`);
console.log(`| **total** | **${clock(steps.reduce((sum, s) => sum + s.seconds, 0))}** |`);

const files = lines(join(dir, 'vitest.jsonl')).map((line) => JSON.parse(line));
for (const name of readdirSync(dir).filter((f) => f.startsWith('playwright') && f.endsWith('.json'))) {
  const report = JSON.parse(readFileSync(join(dir, name), 'utf8'));
  const perFile = new Map();
  const walk = (suite) => {
    for (const spec of suite.specs ?? []) {
      const entry = perFile.get(spec.file) ?? { ms: 0, tests: 0, flaky: [] };
      for (const test of spec.tests) {
        entry.tests += 1;
        for (const result of test.results) entry.ms += result.duration;
        if (test.status === 'flaky') entry.flaky.push(`${spec.title} (passed on retry ${test.results.length - 1})`);
      }
      perFile.set(spec.file, entry);
    }
    for (const child of suite.suites ?? []) walk(child);
  };
  for (const suite of report.suites ?? []) walk(suite);
  const run = name.replace(/\.json$/, '');
  for (const [file, entry] of perFile) files.push({ run, file: `e2e/${file}`, ...entry });
}

console.log('\nThe 15 slowest test files (time from start to end of the file; Playwright: the sum of its tests)');
console.log('| run | file | tests | time |\n| --- | --- | ---: | ---: |');
for (const f of [...files].sort((a, b) => b.ms - a.ms).slice(0, 15))
  console.log(`| ${f.run} | ${f.file} | ${f.tests} | ${seconds(f.ms)} |`);
const counts = new Map();
for (const f of files) counts.set(f.run, (counts.get(f.run) ?? 0) + f.tests);
console.log(`\nTests per run: ${[...counts].map(([run, n]) => `${run} ${n}`).join(', ')}`);

const flaky = files.flatMap((f) => f.flaky.map((test) => `${f.run} | ${f.file} | ${test}`));
console.log(flaky.length ? `\nFLAKY: ${flaky.length} test(s) passed only on a retry:` : '\nFlaky tests: none.');
for (const line of flaky) console.log(`  ${line}`);
