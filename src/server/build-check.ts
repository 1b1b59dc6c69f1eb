import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

const SOURCES = ['src/client', 'src/shared', 'index.html', 'vite.config.ts', 'public', 'scripts/prerender.tsx'];

function newestMtime(path: string): number {
  if (!existsSync(path)) return 0;
  const st = statSync(path);
  if (!st.isDirectory()) return st.mtimeMs;
  let newest = st.mtimeMs;
  for (const name of readdirSync(path)) newest = Math.max(newest, newestMtime(join(path, name)));
  return newest;
}

/** True when the client build is missing or older than any of its sources (only checkable in a source checkout). */
export function clientBuildIsStale(root: string, outDir: string): boolean {
  const built = join(outDir, 'index.html');
  if (!existsSync(built)) return true;
  if (!existsSync(join(root, 'src/client'))) return false;
  const builtAt = statSync(built).mtimeMs;
  return SOURCES.some((s) => newestMtime(join(root, s)) > builtAt);
}
