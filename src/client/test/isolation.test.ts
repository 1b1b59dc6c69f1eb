import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

// Client test files share their worker's modules (vitest.config.ts): one that mocks a module or loads modules afresh
// would change what the files after it import. Such a file must be named *.isolated.test.ts(x), which runs alone.
const root = join(process.cwd(), 'src/client');
const testFiles = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? testFiles(join(dir, entry.name))
      : /\.test\.tsx?$/.test(entry.name)
        ? [join(dir, entry.name)]
        : [],
  );
const MODULE_CHANGES = /\bvi\.(mock|doMock|unmock|doUnmock|resetModules|importActual)\s*[(<]/;

describe('client test isolation', () => {
  it('names every client test that mocks or reloads modules *.isolated.test', () => {
    const shared = testFiles(root).filter((file) => !/\.isolated\.test\.tsx?$/.test(file));
    expect(shared.length).toBeGreaterThan(50);
    const offenders = shared
      .filter((file) => MODULE_CHANGES.test(readFileSync(file, 'utf8')))
      .map((file) => relative(root, file));
    expect(offenders).toEqual([]);
  });

  it('finds the isolated ones by the same rule', () => {
    const isolated = testFiles(root).filter((file) => /\.isolated\.test\.tsx?$/.test(file));
    expect(isolated.length).toBeGreaterThan(0);
    for (const file of isolated) expect(readFileSync(file, 'utf8'), file).toMatch(MODULE_CHANGES);
  });
});
