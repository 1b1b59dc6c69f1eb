import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { eq, sql } from 'drizzle-orm';
import { normalizeEmail } from '../shared/auth';
import { openDatabase, type Database } from './db/client';
import { DataDirInUseError } from './db/data-dir-lock';
import { sqlState } from './db/errors';
import { users } from './db/schema';
import { readEnv } from './env';

// `npm run admin:grant -- someone@example.com`: makes an existing account an admin (moderation of reports). It
// opens the same database as the server: DATABASE_URL, or the embedded PGlite in DATA_DIR, which only one process
// may hold, so with the server running on it this stops and says so instead of touching the files.

function fail(message: string): never {
  console.error(`[admin] ${message}`);
  process.exit(1);
}

const args = process.argv.slice(2).filter((a) => a !== '--');
if (args.length !== 1 || !args[0]?.includes('@')) fail('usage: npm run admin:grant -- <email of an existing account>');
const email = normalizeEmail(args[0]);

let env;
try {
  env = readEnv();
} catch (err) {
  fail((err as Error).message);
}

// PGlite would create an empty database in a directory that has none: say where the app keeps its data instead.
if (!env.DATABASE_URL && !existsSync(join(env.DATA_DIR, 'PG_VERSION')))
  fail(`no embedded database in ${resolve(env.DATA_DIR)}: start the app once (or set DATA_DIR / DATABASE_URL).`);

let database: Database;
try {
  // The app migrates its database at start (or `npm run db:migrate` does): this never changes the schema.
  database = await openDatabase({
    url: env.DATABASE_URL,
    dataDir: env.DATA_DIR,
    poolSize: 1,
    migrate: false,
    prepare: false,
  });
} catch (err) {
  if (err instanceof DataDirInUseError)
    fail(
      `the embedded database in ${err.dir} is in use by the running RuralRoute server (pid ${err.pid}). ` +
        'Stop the server, run this again, then start it; nothing was changed.',
    );
  fail(`could not open the database: ${(err as Error).message}`);
}

const where = database.kind === 'pglite' ? `embedded PGlite in ${resolve(env.DATA_DIR)}` : 'PostgreSQL (DATABASE_URL)';
let code = 0;
try {
  const [user] = await database.db
    .select({ id: users.id, email: users.email, role: users.role })
    .from(users)
    .where(sql`lower(${users.email}) = ${email}`);
  if (!user) {
    console.error(`[admin] no account with the e-mail address ${email} in ${where}. Nothing was changed.`);
    code = 1;
  } else if (user.role === 'admin') {
    console.log(`[admin] ${user.email} is already an admin.`);
  } else {
    await database.db.update(users).set({ role: 'admin' }).where(eq(users.id, user.id));
    console.log(`[admin] ${user.email} is now an admin (${where}). It applies from their next request.`);
  }
} catch (err) {
  const state = sqlState(err);
  // 42P01 undefined table, 42703 undefined column: a database the app has not migrated yet.
  console.error(
    state === '42P01' || state === '42703'
      ? `[admin] the database in ${where} is not migrated yet: start the app once or run \`npm run db:migrate\`.`
      : `[admin] failed: ${(err as Error).message}`,
  );
  code = 1;
} finally {
  await database.close();
}
process.exit(code);
