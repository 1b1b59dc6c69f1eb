import { resolve } from 'node:path';
import { openDatabase } from './db/client';
import { readEnv } from './env';
import { loadPlaces } from './places';

// `npm run db:migrate`: applies pending migrations and exits, for deployments that migrate in a release step and
// start the app with MIGRATE_ON_START=false. Safe to run while instances are up or starting (advisory lock). The
// places are loaded here too when the table is empty (as every start does).
try {
  const env = readEnv();
  const database = await openDatabase({
    url: env.DATABASE_URL,
    dataDir: env.DATA_DIR,
    poolSize: 1,
    migrate: true,
    prepare: env.DATABASE_PREPARE,
  });
  try {
    const loaded = await loadPlaces(database.db);
    if (loaded) console.log(`[migrate] loaded ${loaded} places.`);
  } finally {
    await database.close();
  }
  const where =
    database.kind === 'pglite' ? `embedded PGlite in ${resolve(env.DATA_DIR)}` : 'PostgreSQL (DATABASE_URL)';
  console.log(`[migrate] ${where} is up to date.`);
} catch (err) {
  console.error(`[migrate] failed: ${(err as Error).message}`);
  process.exitCode = 1;
}
