import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DataDirInUseError, LOCK_FILE, lockDataDir } from './data-dir-lock';

const dirs: string[] = [];
function tempDir() {
  const dir = mkdtempSync(join(tmpdir(), 'rr-lock-'));
  dirs.push(dir);
  return dir;
}
afterEach(() => {
  while (dirs.length) rmSync(dirs.pop()!, { recursive: true, force: true });
});

/** The pid of a process that has exited, so it is (for this test's short life) certainly not running. */
function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
  return Number(child.stdout);
}

describe('DATA_DIR lock', () => {
  it('holds our pid while held and is removed on release', () => {
    const dir = tempDir();
    const release = lockDataDir(dir);
    expect(readFileSync(join(dir, LOCK_FILE), 'utf8')).toBe(`${process.pid}\n`);
    release();
    expect(existsSync(join(dir, LOCK_FILE))).toBe(false);
  });

  it('refuses a directory held by a live process, naming the directory and the pid', () => {
    const dir = tempDir();
    // pid 1 is always alive.
    writeFileSync(join(dir, LOCK_FILE), '1\n');
    expect(() => lockDataDir(dir)).toThrow(DataDirInUseError);
    expect(() => lockDataDir(dir)).toThrow(`DATA_DIR ${dir} is in use by another RuralRoute process (pid 1)`);
    expect(readFileSync(join(dir, LOCK_FILE), 'utf8')).toBe('1\n');
  });

  it('refuses a second open in the same process', () => {
    const dir = tempDir();
    const release = lockDataDir(dir);
    try {
      expect(() => lockDataDir(dir)).toThrow(`(pid ${process.pid})`);
    } finally {
      release();
    }
  });

  it('takes over a lock whose process is gone, with a warning', () => {
    const dir = tempDir();
    const gone = deadPid();
    writeFileSync(join(dir, LOCK_FILE), `${gone}\n`);
    const warnings: string[] = [];
    const release = lockDataDir(dir, (m) => warnings.push(m));
    expect(warnings).toEqual([
      `[db] DATA_DIR ${dir}: taking over the lock left by pid ${gone}, which is no longer running.`,
    ]);
    expect(readFileSync(join(dir, LOCK_FILE), 'utf8')).toBe(`${process.pid}\n`);
    release();
  });

  it('takes over a lock holding our own pid that this process does not hold (restarted under the same pid)', () => {
    const dir = tempDir();
    writeFileSync(join(dir, LOCK_FILE), `${process.pid}\n`);
    const warnings: string[] = [];
    lockDataDir(dir, (m) => warnings.push(m))();
    expect(warnings).toHaveLength(1);
  });

  it('takes over a lock file left empty by a crash, after giving a writer time to finish', () => {
    const dir = tempDir();
    writeFileSync(join(dir, LOCK_FILE), '');
    const warnings: string[] = [];
    lockDataDir(dir, (m) => warnings.push(m))();
    expect(warnings).toEqual([`[db] DATA_DIR ${dir}: taking over the lock left by a process that crashed.`]);
  });

  it('release leaves a lock that is no longer ours alone', () => {
    const dir = tempDir();
    const release = lockDataDir(dir);
    writeFileSync(join(dir, LOCK_FILE), '1\n');
    release();
    expect(readFileSync(join(dir, LOCK_FILE), 'utf8')).toBe('1\n');
  });
});
