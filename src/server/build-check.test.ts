import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { buildState, SERVER } from '../../scripts/build-check.mjs';

const roots: string[] = [];
afterEach(() => {
  while (roots.length) rmSync(roots.pop()!, { recursive: true, force: true });
});

function tree(files: Record<string, number>) {
  const root = mkdtempSync(join(tmpdir(), 'rr-build-'));
  roots.push(root);
  for (const [file, secondsAgo] of Object.entries(files)) {
    const path = join(root, file);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, '');
    const at = Date.now() / 1000 - secondsAgo;
    utimesSync(path, at, at);
    // A directory's own mtime changes when a file is added: keep it old so only files decide.
    utimesSync(dirname(path), 0, 0);
  }
  return root;
}

describe("prestart's build check", () => {
  it('is missing without a build, stale when a source is newer, fresh otherwise', () => {
    expect(buildState(tree({ 'src/server/app.ts': 10 }), SERVER)).toBe('missing');
    expect(buildState(tree({ 'src/server/app.ts': 10, 'dist/server/main.js': 20 }), SERVER)).toBe('stale');
    expect(buildState(tree({ 'src/shared/x.ts': 10, 'dist/server/main.js': 20 }), SERVER)).toBe('stale');
    expect(buildState(tree({ 'src/server/db/migrations/0009.sql': 5, 'dist/server/main.js': 20 }), SERVER)).toBe(
      'stale',
    );
    expect(buildState(tree({ 'src/server/app.ts': 20, 'dist/server/main.js': 10 }), SERVER)).toBe('fresh');
  });

  it('takes a deployed build without sources as fresh', () => {
    expect(buildState(tree({ 'dist/server/main.js': 10 }), SERVER)).toBe('fresh');
  });
});
