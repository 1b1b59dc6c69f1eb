import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { get as httpsGet } from 'node:https';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';

/**
 * Where a bench runs: a throwaway database on the real PostgreSQL at `baseUrl` (created now, dropped by cleanup), or
 * without one a temp directory for embedded PGlite.
 */
export async function createTarget(
  baseUrl: string | undefined,
): Promise<{ url?: string; dataDir: string; cleanup: () => Promise<void> }> {
  if (!baseUrl) {
    const dataDir = mkdtempSync(join(tmpdir(), 'rr-bench-'));
    return { dataDir, cleanup: async () => rmSync(dataDir, { recursive: true, force: true }) };
  }
  const name = `rr_bench_${randomBytes(5).toString('hex')}`;
  const admin = new pg.Client({ connectionString: baseUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    dataDir: '',
    cleanup: async () => {
      const c = new pg.Client({ connectionString: baseUrl });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    },
  };
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      srv.close(() => (typeof addr === 'object' && addr ? resolve(addr.port) : reject(new Error('no port'))));
    });
  });
}

/**
 * Starts a server entry in its own process and resolves once /api/health answers, with the elapsed ms. By default the
 * compiled `dist/server/main.js`, as `npm start` runs it (the bench scripts build it first); a `.ts` script runs
 * through tsx. `inheritStderr` passes its diagnostics through to the bench's output.
 */
export async function startServer(
  env: Record<string, string>,
  opts: { script?: string; nodeArgs?: string[]; inheritStderr?: boolean; timeoutMs?: number } = {},
): Promise<{ child: ChildProcess; ms: number; port: number }> {
  const timeoutMs = opts.timeoutMs ?? 120_000;
  const port = Number(env.PORT ?? (await freePort()));
  const started = performance.now();
  const script = opts.script ?? 'dist/server/main.js';
  const child = spawn(
    process.execPath,
    [...(opts.nodeArgs ?? []), ...(script.endsWith('.ts') ? ['--import', 'tsx'] : []), script],
    {
      env: { ...process.env, ...env, PORT: String(port) },
      stdio: ['ignore', 'pipe', opts.inheritStderr ? 'inherit' : 'pipe'],
    },
  );
  let output = '';
  child.stdout?.on('data', (d) => (output += d));
  child.stderr?.on('data', (d) => (output += d));
  while (performance.now() - started < timeoutMs) {
    if (child.exitCode !== null) throw new Error(`server exited early:\n${output}`);
    try {
      if (await healthy(port, env.TLS_CERT)) return { child, ms: performance.now() - started, port };
    } catch {
      /* not listening yet */
    }
    await new Promise((r) => setTimeout(r, 20));
  }
  child.kill('SIGKILL');
  throw new Error(`server did not start in ${timeoutMs} ms:\n${output}`);
}

/** GET /api/health over HTTP, or over HTTPS trusting `certFile` when the server was given TLS_CERT. */
async function healthy(port: number, certFile?: string): Promise<boolean> {
  if (!certFile) return (await fetch(`http://127.0.0.1:${port}/api/health`)).ok;
  const ca = readFileSync(certFile);
  return new Promise((resolve, reject) => {
    httpsGet(`https://localhost:${port}/api/health`, { ca }, (res) => {
      res.resume();
      resolve(res.statusCode === 200);
    }).on('error', reject);
  });
}

export async function stopServer(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  await new Promise<void>((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
    setTimeout(() => child.kill('SIGKILL'), 5000).unref();
  });
}

export function percentile(sorted: number[], p: number): number {
  if (!sorted.length) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

export function printTable(rows: Record<string, string | number>[]): void {
  if (!rows.length) return;
  const cols = Object.keys(rows[0]!);
  const widths = cols.map((c) => Math.max(c.length, ...rows.map((r) => String(r[c]).length)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i]!)).join(' | ')} |`;
  console.log(line(cols));
  console.log(`|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`);
  for (const r of rows) console.log(line(cols.map((c) => String(r[c]))));
}
