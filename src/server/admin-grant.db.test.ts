import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database, type Db } from './db/client';
import { profiles, users } from './db/schema';
import { createTestDatabase } from './test/database';

// `npm run admin:grant -- email` as a real process (through tsx, so no build is needed), against the database the
// suite runs on: real PostgreSQL when DATABASE_URL is set, else an embedded PGlite directory of its own.
const onPostgres = !!process.env.DATABASE_URL;

function grant(env: Record<string, string>, ...args: string[]) {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server/admin-grant.ts', ...args], {
    env: { ...process.env, NODE_ENV: 'test', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => (stdout += d));
  child.stderr.on('data', (d) => (stderr += d));
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) =>
    child.once('exit', (code) => resolve({ code, stdout, stderr })),
  );
}

describe('npm run admin:grant', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'rr-admin-'));
  let postgres: (Database & { url?: string }) | undefined;
  let env: Record<string, string>;

  /** Runs `fn` on the database; an embedded one is opened only meanwhile, as only one process may hold it. */
  async function withDb<T>(fn: (db: Db) => Promise<T>): Promise<T> {
    if (postgres) return fn(postgres.db);
    const database = await openDatabase({ dataDir });
    try {
      return await fn(database.db);
    } finally {
      await database.close();
    }
  }
  const roleOf = (email: string) =>
    withDb(async (db) => (await db.select({ role: users.role }).from(users).where(eq(users.email, email)))[0]?.role);

  beforeAll(async () => {
    if (onPostgres) {
      postgres = await createTestDatabase();
      env = { DATABASE_URL: postgres.url ?? '' };
    } else env = { DATA_DIR: dataDir, DATABASE_URL: '' };
    await withDb(async (db) => {
      for (const email of ['grace.admin@example.com', 'someone.else@example.com']) {
        const [user] = await db
          .insert(users)
          .values({ email, passwordHash: 'not-a-hash', ageConfirmedAt: new Date() })
          .returning({ id: users.id });
        await db.insert(profiles).values({ userId: user!.id, fullName: email.split('@')[0]! });
      }
    });
  });
  afterAll(async () => {
    await postgres?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('makes the account with that address an admin, whatever the case of the address; again says so', async () => {
    const first = await grant(env, '--', '  Grace.Admin@EXAMPLE.com ');
    expect(first.stderr).toBe('');
    expect(first.code).toBe(0);
    expect(first.stdout).toContain('[admin] grace.admin@example.com is now an admin');
    expect(await roleOf('grace.admin@example.com')).toBe('admin');
    expect(await roleOf('someone.else@example.com')).toBe('user');

    const again = await grant(env, 'grace.admin@example.com');
    expect(again.code).toBe(0);
    expect(again.stdout).toContain('[admin] grace.admin@example.com is already an admin.');
  });

  it('exits 1 with a clear message for an unknown address or no address, and changes nothing', async () => {
    const unknown = await grant(env, 'nobody@example.com');
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('[admin] no account with the e-mail address nobody@example.com');
    expect(unknown.stderr).toContain('Nothing was changed.');

    const none = await grant(env);
    expect(none.code).toBe(1);
    expect(none.stderr).toContain('usage: npm run admin:grant -- <email of an existing account>');
    expect(await roleOf('someone.else@example.com')).toBe('user');
  });

  it.skipIf(onPostgres)(
    'refuses an embedded database in use by a running server, naming it, and changes nothing',
    async () => {
      // This process holds DATA_DIR, as a running server would.
      const held = await openDatabase({ dataDir });
      try {
        const res = await grant(env, 'someone.else@example.com');
        expect(res.code).toBe(1);
        expect(res.stderr).toContain(
          `[admin] the embedded database in ${dataDir} is in use by the running RuralRoute server (pid ${process.pid}).`,
        );
        expect(res.stderr).toContain('Stop the server, run this again, then start it; nothing was changed.');
        const [row] = await held.db
          .select({ role: users.role })
          .from(users)
          .where(eq(users.email, 'someone.else@example.com'));
        expect(row?.role).toBe('user');
      } finally {
        await held.close();
      }
    },
  );

  it.skipIf(onPostgres)('does not create a database where there is none', async () => {
    const empty = join(dataDir, 'nothing-here');
    const res = await grant({ DATA_DIR: empty, DATABASE_URL: '' }, 'grace.admin@example.com');
    expect(res.code).toBe(1);
    expect(res.stderr).toContain(`[admin] no embedded database in ${empty}: start the app once`);
  });
});
