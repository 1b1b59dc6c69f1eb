/**
 * Figures for the foundation: cold start of the server (fresh and existing DATA_DIR, client already built) and
 * sign-in latency at the configured argon2id cost. Usage: npm run bench:auth
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { percentile, printTable, startServer, stopServer } from './lib';

const RUNS = Number(process.env.BENCH_STARTS ?? 3);
const SIGNINS = Number(process.env.BENCH_SIGNINS ?? 40);

async function coldStarts() {
  const fresh: number[] = [];
  const existing: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const dir = mkdtempSync(join(tmpdir(), 'rr-bench-'));
    try {
      const a = await startServer({ DATA_DIR: dir, NODE_ENV: 'production' });
      fresh.push(a.ms);
      await stopServer(a.child);
      const b = await startServer({ DATA_DIR: dir, NODE_ENV: 'production' });
      existing.push(b.ms);
      await stopServer(b.child);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  const med = (xs: number[]) =>
    percentile(
      [...xs].sort((x, y) => x - y),
      50,
    );
  return { fresh: med(fresh), existing: med(existing) };
}

async function signInLatency() {
  const dir = mkdtempSync(join(tmpdir(), 'rr-bench-'));
  const { child, port } = await startServer({ DATA_DIR: dir, NODE_ENV: 'production', AUTH_PER_IP_MAX: '100000' });
  const base = `http://127.0.0.1:${port}/api/auth`;
  const headers = { 'content-type': 'application/json', origin: `http://127.0.0.1:${port}` };
  try {
    const email = 'bench@example.com';
    const password = 'Bench-password-1';
    const up = await fetch(`${base}/sign-up`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ email, password, full_name: 'Bench', age_confirmed: true }),
    });
    if (up.status !== 201) throw new Error(`sign-up failed: ${up.status}`);
    const times: number[] = [];
    for (let i = 0; i < SIGNINS; i++) {
      const t = performance.now();
      const res = await fetch(`${base}/sign-in`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ email, password }),
      });
      await res.arrayBuffer();
      if (res.status !== 200) throw new Error(`sign-in failed: ${res.status}`);
      times.push(performance.now() - t);
    }
    times.sort((a, b) => a - b);
    return { p50: percentile(times, 50), p99: percentile(times, 99), n: times.length };
  } finally {
    await stopServer(child);
    rmSync(dir, { recursive: true, force: true });
  }
}

const starts = await coldStarts();
const signIn = await signInLatency();
const cost = `argon2id m=${process.env.ARGON2_MEMORY_KIB ?? 19456} KiB, t=${process.env.ARGON2_TIME_COST ?? 2}, p=${process.env.ARGON2_PARALLELISM ?? 1}`;
printTable([
  { figure: `cold start, fresh DATA_DIR (median of ${RUNS})`, ms: starts.fresh.toFixed(0) },
  { figure: `cold start, existing DATA_DIR (median of ${RUNS})`, ms: starts.existing.toFixed(0) },
  { figure: `sign-in p50 (${signIn.n} sequential, ${cost})`, ms: signIn.p50.toFixed(1) },
  { figure: `sign-in p99`, ms: signIn.p99.toFixed(1) },
]);
