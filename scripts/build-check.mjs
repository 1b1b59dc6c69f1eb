// Is a build missing or older than its sources? Plain JavaScript: `npm start`'s prestart step runs it with node
// alone, also where only production dependencies are installed (npm ci --omit=dev).
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

export const CLIENT = {
  name: 'client',
  output: 'dist/client/index.html',
  sources: ['src/client', 'src/shared', 'index.html', 'vite.config.ts', 'public', 'scripts/prerender.tsx'],
};

export const SERVER = {
  name: 'server',
  output: 'dist/server/main.js',
  sources: ['src/server', 'src/shared', 'scripts/build-server.mjs'],
};

function newestMtime(path) {
  if (!existsSync(path)) return 0;
  const st = statSync(path);
  if (!st.isDirectory()) return st.mtimeMs;
  let newest = st.mtimeMs;
  for (const name of readdirSync(path)) newest = Math.max(newest, newestMtime(join(path, name)));
  return newest;
}

/**
 * 'missing' when there is no build, 'stale' when a source is newer than it, else 'fresh'. Without the sources
 * (a deployed build only) a present build counts as fresh.
 */
export function buildState(root, target) {
  const built = join(root, target.output);
  if (!existsSync(built)) return 'missing';
  const builtAt = statSync(built).mtimeMs;
  return target.sources.some((s) => newestMtime(join(root, s)) > builtAt) ? 'stale' : 'fresh';
}
