// Builds the server into dist/server: the app's own code bundled into one file per entry, every npm package left
// as an import (installed by `npm ci --omit=dev`), and the SQL migrations copied beside the bundle, where
// src/server/db/migrate.ts looks for them (next to the module, via import.meta.url).
// Usage: node scripts/build-server.mjs
import { cpSync, rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const outdir = `${root}dist/server`;

export async function buildServer() {
  const esbuild = await import('esbuild');
  rmSync(outdir, { recursive: true, force: true });
  await esbuild.build({
    absWorkingDir: root,
    entryPoints: {
      main: 'src/server/main.ts',
      'db-migrate': 'src/server/db-migrate.ts',
      'admin-grant': 'src/server/admin-grant.ts',
    },
    outdir,
    bundle: true,
    packages: 'external',
    platform: 'node',
    format: 'esm',
    target: 'node20.19',
    logLevel: 'warning',
  });
  cpSync(`${root}src/server/db/migrations`, `${outdir}/migrations`, { recursive: true });
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const started = performance.now();
  await buildServer();
  console.log(`server built into dist/server in ${Math.round(performance.now() - started)} ms`);
}
