// `npm start` runs the build in dist/; this runs first and builds the client and the server only when missing or
// older than their sources, so `npm ci && npm start` works on a fresh clone and a restart costs nothing.
// Where the build tools are absent (npm ci --omit=dev) a present build is used as it is.
// Usage: node scripts/prestart.mjs [--server-only]
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { buildState, CLIENT, SERVER } from './build-check.mjs';

const root = process.cwd();
const serverOnly = process.argv.includes('--server-only');
const serveClient = !['false', '0'].includes(process.env.SERVE_CLIENT ?? '');
const vite = join(root, 'node_modules/vite/bin/vite.js');

const targets = [
  ...(serveClient && !serverOnly
    ? [{ ...CLIENT, tool: vite, build: () => run([vite, 'build', '--logLevel', 'warn']) }]
    : []),
  {
    ...SERVER,
    tool: join(root, 'node_modules/esbuild'),
    build: () => run([join(root, 'scripts/build-server.mjs')]),
  },
];

function run(args) {
  return spawnSync(process.execPath, args, { stdio: 'inherit', cwd: root }).status === 0;
}

for (const target of targets) {
  const state = buildState(root, target);
  if (state === 'fresh') continue;
  if (!existsSync(target.tool)) {
    if (state === 'stale') {
      console.warn(`[start] the ${target.name} build is older than its sources, but the build tools are not installed`);
      console.warn('        (devDependencies omitted): starting the existing build.');
      continue;
    }
    console.error(`[start] no ${target.name} build (${target.output}) and no build tools to make one.`);
    console.error(
      '        Install with `npm ci` (devDependencies included) and run `npm run build`, or deploy a built dist/.',
    );
    process.exit(1);
  }
  console.log(`[start] ${target.name} build ${state}: building it...`);
  if (!target.build()) {
    console.error(`[start] the ${target.name} build failed; see the output above.`);
    process.exit(1);
  }
}
