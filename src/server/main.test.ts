import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { LOCK_FILE } from './db/data-dir-lock';
import { STRONG_PASSWORD } from './test/harness';
import { listening, spawnServer, type ServerProcess } from './test/server-process';

describe('server start-up', () => {
  it('stops with a clear message and exit code 1 when a setting is invalid', () => {
    const result = spawnSync(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], {
      env: { ...process.env, PORT: 'eighty', DATABASE_URL: 'mysql://nope', SERVE_CLIENT: 'false' },
      encoding: 'utf8',
      timeout: 20_000,
    });
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('Invalid environment configuration');
    expect(result.stderr).toContain('PORT');
    expect(result.stderr).toContain('DATABASE_URL must start with postgres:// or postgresql://');
  });
});

describe('one process per DATA_DIR (embedded PGlite)', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'rr-data-'));
  const env = { DATA_DIR: dataDir, DATABASE_URL: '', ARGON2_MEMORY_KIB: '1024', ARGON2_TIME_COST: '1' };
  const started: ServerProcess[] = [];
  const start = () => {
    const server = spawnServer(env);
    started.push(server);
    return server;
  };
  afterAll(() => {
    for (const s of started) if (s.child.exitCode === null && s.child.signalCode === null) s.child.kill('SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
  });

  const post = (url: string, path: string, body: unknown) =>
    fetch(`${url}/api${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: url },
      body: JSON.stringify(body),
    });
  const account = { email: 'first.process@example.com', password: STRONG_PASSWORD };

  it('a second process refuses the directory in use, naming it and the pid; the first keeps its rows', async () => {
    const first = start();
    const firstUrl = await listening(first);
    const up = await post(firstUrl, '/auth/sign-up', { ...account, full_name: 'First Process', age_confirmed: true });
    expect(up.status).toBe(201);

    const second = start();
    expect(await second.exited).toBe(1);
    expect(second.output()).toContain(
      `DATA_DIR ${dataDir} is in use by another RuralRoute process (pid ${first.child.pid})`,
    );

    expect((await fetch(`${firstUrl}/api/health`)).status).toBe(200);
    expect((await post(firstUrl, '/auth/sign-in', account)).status).toBe(200);
    // Two cold processes, each creating and migrating a PGlite database and loading the gazetteer: 17 s alone on 2
    // cores, and past the default 30 s once while the whole suite ran beside it (not a wait on time: a limit).
  }, 60_000);

  it('after the holder is killed (kill -9), the next process takes the lock over with a warning and has the rows', async () => {
    const first = started[0]!;
    first.child.kill('SIGKILL');
    await first.exited;
    expect(existsSync(join(dataDir, LOCK_FILE))).toBe(true);

    const next = start();
    const url = await listening(next);
    expect(next.output()).toContain(
      `DATA_DIR ${dataDir}: taking over the lock left by pid ${first.child.pid}, which is no longer running.`,
    );
    expect((await post(url, '/auth/sign-in', account)).status).toBe(200);

    next.child.kill('SIGTERM');
    expect(await next.exited).toBe(0);
    expect(existsSync(join(dataDir, LOCK_FILE))).toBe(false);
  });
});
