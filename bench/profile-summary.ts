/**
 * `npx tsx bench/profile-summary.ts <file.cpuprofile> [top]`: where a CPU profile's time went (bench/trace-server.ts
 * writes one per bench row with BENCH_PROFILE_DIR): self time by package (node_modules/<name>, node's own code, the
 * app's files) and the functions with the most self time.
 */
import { readFileSync } from 'node:fs';

interface Node {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: Node[];
  samples: number[];
  timeDeltas: number[];
}

const [file, topArg] = process.argv.slice(2);
if (!file) throw new Error('usage: bench/profile-summary.ts <file.cpuprofile> [top]');
const top = Number(topArg ?? 25);
const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const self = new Map<number, number>();
profile.samples.forEach((id, i) => self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)));
const total = [...self.values()].reduce((a, b) => a + b, 0);

function packageOf(url: string): string {
  if (!url) return '(native / idle / gc)';
  const nm = url.lastIndexOf('node_modules/');
  if (nm >= 0) {
    const rest = url.slice(nm + 'node_modules/'.length).split('/');
    return rest[0]!.startsWith('@') ? `${rest[0]}/${rest[1]}` : rest[0]!;
  }
  if (url.startsWith('node:')) return 'node:' + url.slice(5).split('/')[0];
  const src = url.indexOf('/src/');
  return src >= 0 ? url.slice(src + 1) : url;
}

const packages = new Map<string, number>();
const functions = new Map<string, number>();
for (const [id, us] of self) {
  const { callFrame: f } = byId.get(id)!;
  const pkg = packageOf(f.url);
  packages.set(pkg, (packages.get(pkg) ?? 0) + us);
  const key = `${f.functionName || '(anonymous)'} ${pkg}:${f.lineNumber + 1}`;
  functions.set(key, (functions.get(key) ?? 0) + us);
}
const show = (title: string, m: Map<string, number>) => {
  console.log(`\n${title}`);
  for (const [k, us] of [...m].sort((a, b) => b[1] - a[1]).slice(0, top))
    console.log(`${((us / total) * 100).toFixed(1).padStart(5)}%  ${(us / 1000).toFixed(0).padStart(6)} ms  ${k}`);
};
// Inclusive time of the app's own functions (src/): each sample counts once for every app function on its stack.
const parent = new Map<number, number>();
for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
const inclusive = new Map<string, number>();
for (const [id, us] of self) {
  const seen = new Set<string>();
  for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
    const { callFrame: f } = byId.get(at)!;
    if (!f.url.includes('/src/')) continue;
    const key = `${f.functionName || '(anonymous)'} ${packageOf(f.url)}:${f.lineNumber + 1}`;
    if (seen.has(key)) continue;
    seen.add(key);
    inclusive.set(key, (inclusive.get(key) ?? 0) + us);
  }
}
console.log(`${file}: ${(total / 1000).toFixed(0)} ms sampled`);
show('Self time by package or file', packages);
show('Self time by function', functions);
show("Inclusive time of the app's functions", inclusive);
