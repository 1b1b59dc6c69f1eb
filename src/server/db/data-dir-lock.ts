import { closeSync, linkSync, openSync, readFileSync, renameSync, unlinkSync, writeSync } from 'node:fs';
import { join, resolve } from 'node:path';

/**
 * PGlite is one process's database: a second process opening the same directory writes over the first one's files
 * and rows are lost. A lock file created with O_EXCL ('wx') in DATA_DIR holds the owner's pid.
 */
export const LOCK_FILE = 'ruralroute.lock';

export class DataDirInUseError extends Error {
  constructor(
    readonly dir: string,
    readonly pid: number,
  ) {
    super(
      `DATA_DIR ${dir} is in use by another RuralRoute process (pid ${pid}). ` +
        'Stop that process first, or give this one another DATA_DIR.',
    );
    this.name = 'DataDirInUseError';
  }
}

/** Directories this process holds, so a second open in the same process is refused too. */
const held = new Set<string>();

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: the process exists but belongs to another user.
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The lock file's text, or undefined when there is no lock file. */
function readLock(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
}

const pidIn = (text: string) => (/^\d+\n$/.test(text) ? Number(text.trim()) : undefined);

function pause(ms: number) {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

function tryCreate(file: string): boolean {
  let fd: number;
  try {
    fd = openSync(file, 'wx');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw err;
  }
  try {
    writeSync(fd, `${process.pid}\n`);
  } finally {
    closeSync(fd);
  }
  return true;
}

/**
 * Takes the lock on `dataDir` or throws DataDirInUseError. A lock whose pid is gone is taken over with a warning,
 * and so is one holding our own pid while this process does not hold the directory (a container restarted under
 * the same pid). Returns the release function, also run on process exit so that a process.exit() elsewhere does
 * not leave the lock behind.
 */
export function lockDataDir(dataDir: string, warn: (message: string) => void = console.warn): () => void {
  const dir = resolve(dataDir);
  const file = join(dir, LOCK_FILE);
  for (let attempt = 0; attempt < 5; attempt++) {
    if (tryCreate(file)) return holdLock(dir, file);
    const text = readLock(file);
    if (text === undefined) continue;
    const pid = pidIn(text);
    // No complete pid yet: its owner is writing it. One that stays unreadable was left by a crash.
    if (pid === undefined && attempt < 2) {
      pause(100);
      continue;
    }
    if (pid !== undefined && (pid === process.pid ? held.has(dir) : isAlive(pid)))
      throw new DataDirInUseError(dir, pid);
    // Moving the stale file aside is atomic: of two processes taking over at once, one rename fails (ENOENT)...
    const aside = `${file}.stale-${process.pid}`;
    try {
      renameSync(file, aside);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') continue;
      throw err;
    }
    // ...and one that read the stale lock before the other replaced it has moved a fresh lock: put that back.
    if (readLock(aside) !== text) {
      try {
        linkSync(aside, file);
      } catch {
        /* another process holds it now: the next attempt reads its pid */
      }
      unlinkSync(aside);
      continue;
    }
    unlinkSync(aside);
    warn(
      `[db] DATA_DIR ${dir}: taking over the lock left by ${pid ? `pid ${pid}, which is no longer running` : 'a process that crashed'}.`,
    );
  }
  throw new Error(`DATA_DIR ${dir}: could not take the lock file ${file}; another process keeps changing it.`);
}

function holdLock(dir: string, file: string): () => void {
  held.add(dir);
  const release = () => {
    process.off('exit', release);
    if (!held.delete(dir)) return;
    // Only our own lock is removed: if the file was taken over meanwhile, it is someone else's.
    if (readLock(file) === `${process.pid}\n`) unlinkSync(file);
  };
  process.on('exit', release);
  return release;
}
