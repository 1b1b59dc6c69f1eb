/**
 * The database's ceiling for the API's own SQL: `bash scripts/with-postgres.sh npx tsx bench/pgbench.ts` seeds the
 * data of bench:api (bench/seed.ts), sends each endpoint's requests through the real app once per parameter set
 * while a logging drizzle records the statements (bench/explain.ts), writes them as pgbench custom scripts (one
 * script per parameter set, picked at random per transaction, the values bound as parameters with
 * `-M prepared` as node-postgres binds them) and runs pgbench with the bench's client count for a few seconds
 * each, printing transactions/s and latency. bench:api with BENCH_CEILING=1 runs the same on its own data and
 * prints API/ceiling.
 *
 * Reads are recorded in steady state (each is sent once unrecorded first, so a cached page's script is its version
 * check). What differs from the API: the session lookup is left out (the API's session cache answers almost every request
 * in steady state); the accept's transaction ends in ROLLBACK so that each script can run again (the same request
 * and driver twice would be refused; a move made by one database function call, in autocommit in the API, is
 * wrapped in BEGIN ... ROLLBACK, the write throttle's hit inside it as in the API: decision 045). Two clients that
 * pick the same accept script at once wait for each other (the same booking's unique key, the same driver's
 * throttle row), which the API's accept pass, every request a new pair, never does: the accept ceiling is a lower
 * bound. Options: PGBENCH_CLIENTS (50), PGBENCH_SECONDS (10), PGBENCH_VARIANTS (parameter sets per
 * endpoint: 128, the most pgbench takes), PGBENCH_ONLY (endpoint name filter), PGBENCH_SHOW=1 (print each
 * endpoint's first script), PGBENCH_SWEEP (more client counts, e.g. "1,2,4,8": a row for each).
 */
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { sql } from 'drizzle-orm';
import { createApp } from '../src/server/app';
import { openDatabase, type Database } from '../src/server/db/client';
import { rowsOf } from '../src/server/db/result-rows';
import { readEnv } from '../src/server/env';
import { loggingDb, type Captured } from './explain';
import { createTarget, percentile, printTable } from './lib';
import { completeForm, FORM_BOUNDARY, LIFECYCLE_SHARES, prepare } from './prepare';
import { BENCH_DELIVERY_CODE, seed } from './seed';

const run = promisify(execFile);

export const PGBENCH_CLIENTS = Number(process.env.PGBENCH_CLIENTS ?? 50);
const SECONDS = Number(process.env.PGBENCH_SECONDS ?? 10);
const VARIANTS = Math.min(128, Number(process.env.PGBENCH_VARIANTS ?? 128));
/**
 * PGBENCH_SWEEP="1,2,4,8": each endpoint is also driven with each of these client counts, to find the database's
 * best throughput for the SQL on these cores (a write's peaks at a few clients: decision 024, fifth session).
 */
const SWEEP = (process.env.PGBENCH_SWEEP ?? '')
  .split(',')
  .filter((c) => c.trim())
  .map(Number)
  .filter((c) => Number.isInteger(c) && c > 0);

/**
 * PGBENCH_WAITS=1: while each pgbench run goes, pg_stat_activity is sampled every 5 ms and the share of active backends
 * on CPU or in each wait event is printed, to tell a CPU-bound ceiling from one set by a lock or a shared resource.
 */
const WAITS = process.env.PGBENCH_WAITS === '1';
/** PGBENCH_STATEMENTS=1: pgbench -r, and each endpoint's first script printed with its statements' latencies. */
const STATEMENTS = process.env.PGBENCH_STATEMENTS === '1';

export function sampleWaits(url: string) {
  const counts = new Map<string, number>();
  let total = 0;
  let stopped = false;
  const done = (async () => {
    const { default: pg } = await import('pg');
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      while (!stopped) {
        const { rows } = await client.query<{ w: string }>(
          `select coalesce(wait_event_type || ':' || wait_event, 'CPU') as w from pg_stat_activity
           where state = 'active' and backend_type = 'client backend' and pid <> pg_backend_pid()`,
        );
        for (const { w } of rows) counts.set(w, (counts.get(w) ?? 0) + 1);
        total += rows.length;
        await new Promise((r) => setTimeout(r, 5));
      }
    } finally {
      await client.end();
    }
  })();
  return {
    async stop() {
      stopped = true;
      await done;
      return [...counts]
        .sort((a, b) => b[1] - a[1])
        .slice(0, 8)
        .map(([w, n]) => `${w} ${Math.round((n / Math.max(1, total)) * 100)}%`)
        .join(', ');
    },
  };
}

interface Endpoint {
  /** As bench:api names the row. */
  name: string;
  method?: 'POST';
  path: (k: number) => string;
  /** The session token's index for parameter set k. */
  user: (k: number) => number;
  body?: (k: number) => unknown;
  /** A raw body and its content type (a multipart form), instead of JSON. */
  raw?: { body: string; contentType: string };
  /**
   * A move of a seeded booking (choose, complete): recorded on booking `recordOn(k)`, which the move changes, and
   * replayed on its twin `replayOn(k)`, a booking in the same state: every id of the first (the booking, its request,
   * its two people, its held payment) in the recorded values is replaced by the twin's, and the whole request runs in
   * one transaction that ends in ROLLBACK, so each script can run again.
   */
  twins?: { recordOn: (k: number) => string; replayOn: (k: number) => string };
}

export interface CeilingRow {
  endpoint: string;
  clients: number;
  'tps (ceiling)': number;
  'latency avg ms': number;
  'p50 ms': number;
  'p99 ms': number;
  'statements/tx': number;
  failed: string;
}

type Prep = Awaited<ReturnType<typeof prepare>>;
type Item = Prep['chooses'][number];
/** Pairs of lifecycle bookings in the same state with the same compensation: one recorded, one replayed. */
type Twins = { chooses: [Item, Item][]; completes: [Item, Item][] };

/**
 * VARIANTS pairs of bookings of the ceiling's share (prepare.ts LIFECYCLE_SHARES) whose requests carry the same
 * compensation, so the twin's script moves the same money (a release of the recorded amount from a smaller held
 * payment would take its account below zero).
 */
async function twinPairs(database: Database, prep: Prep): Promise<Twins> {
  const pairs = async (list: Item[]) => {
    const share = list.slice(LIFECYCLE_SHARES.ceilingFrom, LIFECYCLE_SHARES.closedLoopFrom);
    const amounts = (
      (await database.db.execute(sql`
        select b.id::text, r.compensation_cents::text as c from bookings b
        join delivery_requests r on r.id = b.request_id
        where b.id = any(${`{${share.map((i) => i.id).join(',')}}`}::uuid[])`)) as unknown as {
        rows: { id: string; c: string }[];
      }
    ).rows;
    const amountOf = new Map(amounts.map((a) => [a.id, a.c]));
    const waiting = new Map<string, Item>();
    const found: [Item, Item][] = [];
    for (const item of share) {
      const c = amountOf.get(item.id)!;
      const first = waiting.get(c);
      if (first) {
        found.push([first, item]);
        waiting.delete(c);
      } else waiting.set(c, item);
      if (found.length === VARIANTS) return found;
    }
    throw new Error(`only ${found.length} pairs of bookings with the same compensation for the ceiling`);
  };
  return { chooses: await pairs(prep.chooses), completes: await pairs(prep.completes) };
}

function endpoints(prep: Prep, users: number, twins: Twins): Endpoint[] {
  // Parameter set k reads as user k * 7 (spread over the users), accepts as bench:api's k-th pair.
  const user = (k: number) => (k * 7) % users;
  // From the middle of the list: bench:api's accept pass takes its pairs from the start, and its choose pass matches
  // the oldest requests (the end of the list: those seeded with two offers), which then refuse an accept.
  const middle = Math.floor(prep.acceptPairs.length / 2);
  const pair = (k: number) => prep.acceptPairs[(middle + k) % prep.acceptPairs.length]!;
  const conversation = (k: number) => prep.completes[prep.completes.length - 1 - (k % prep.completes.length)]!;
  return [
    { name: 'browse rides, first page', path: () => '/rides/browse', user },
    { name: 'browse rides, deep page (~500)', path: () => `/rides/browse?cursor=${prep.deepRides}`, user },
    { name: 'browse requests, first page', path: () => '/requests/browse', user },
    { name: 'browse requests, deep page (~500)', path: () => `/requests/browse?cursor=${prep.deepRequests}`, user },
    { name: 'my rides', path: () => '/rides/mine', user },
    { name: 'my requests', path: () => '/requests/mine', user },
    { name: 'my bookings', path: () => '/bookings/mine', user },
    {
      name: 'accept (POST /bookings)',
      method: 'POST',
      path: () => '/bookings',
      user: (k) => pair(k).driver,
      body: (k) => ({ request_id: pair(k).requestId }),
    },
    {
      name: 'choose with payment (POST /bookings/:id/choose, test card held)',
      method: 'POST',
      path: (k) => `/bookings/${twins.chooses[k]![0].id}/choose`,
      user: (k) => twins.chooses[k]![0].token,
      body: () => ({ card: { number: '4242424242424242', expiry: '12/40', cvc: '123', zip: '05401' } }),
      twins: { recordOn: (k) => twins.chooses[k]![0].id, replayOn: (k) => twins.chooses[k]![1].id },
    },
    {
      name: 'complete with release (POST /bookings/:id/complete, code)',
      method: 'POST',
      path: (k) => `/bookings/${twins.completes[k]![0].id}/complete`,
      user: (k) => twins.completes[k]![0].token,
      raw: { body: completeForm(BENCH_DELIVERY_CODE), contentType: `multipart/form-data; boundary=${FORM_BOUNDARY}` },
      twins: { recordOn: (k) => twins.completes[k]![0].id, replayOn: (k) => twins.completes[k]![1].id },
    },
    {
      // As bench:api's message pass: a driver writes in a confirmed booking's conversation (from the end of the list).
      name: 'send message (POST /bookings/:id/messages)',
      method: 'POST',
      path: (k) => `/bookings/${conversation(k).id}/messages`,
      user: (k) => conversation(k).token,
      body: (k) => ({ body: `On my way, about ${k % 60} minutes out.`, client_id: randomUUID() }),
    },
  ];
}

/** Runs each endpoint once per parameter set through the app, recording its SQL under `${name}#${k}`. */
async function capture(database: Database, tokens: string[], list: Endpoint[]) {
  const { db, captured, labelNext } = await loggingDb(database);
  const dataDir = mkdtempSync(join(tmpdir(), 'rr-pgbench-app-'));
  const env = readEnv({
    NODE_ENV: 'production',
    DATA_DIR: dataDir,
    WRITE_LIMIT_PER_USER_MAX: '1000000000',
    MESSAGE_LIMIT_PER_USER_MAX: '1000000000',
  });
  const app = createApp({ db, env, notifications: database.notifications });
  // The app's job worker would run the e-mails of the requests being recorded (with their own transactions) under
  // a request's label: it is stopped, so that each script holds the request's own statements only.
  await app.jobs.close();
  const created: string[] = [];
  try {
    for (const e of list)
      for (let k = 0; k < VARIANTS; k++) {
        const headers = {
          authorization: `Bearer ${tokens[e.user(k)]}`,
          'content-type': e.raw?.contentType ?? 'application/json',
        };
        const call = (method: string, path: string, body?: unknown) =>
          app.request(
            `http://localhost/api${path}`,
            { method, headers, body: body === undefined ? undefined : e.raw ? e.raw.body : JSON.stringify(body) },
            { incoming: { socket: { remoteAddress: '127.0.0.1' } } },
          );
        // Unlabelled: the session lookup, which the session cache then answers, and a read's first answer: what a
        // read sends in steady state is recorded (browse pages and the user's own lists are then served from
        // memory, src/server/listings, so their script is the version check alone).
        labelNext('');
        await call('GET', '/auth/session');
        if (!e.method) await call('GET', e.path(k));
        labelNext(`${e.name}#${k}`);
        const res = await call(e.method ?? 'GET', e.path(k), e.raw ? '' : e.body?.(k));
        if (!res.ok) throw new Error(`${e.name} #${k}: ${res.status} ${await res.text()}`);
        const body = (await res.json()) as { id?: string };
        // A twin's move changed a seeded booking, which stays (its script is replayed on the twin).
        if (e.method === 'POST' && body.id && !e.twins) {
          created.push(body.id);
          captured.filter((c) => c.label === `${e.name}#${k}`).forEach((c) => ((c as Tagged).returned = body.id));
        }
        labelNext('');
      }
  } finally {
    await app.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
  // The accepts and messages made while recording go again, so that pgbench makes the same ones (a booking's events
  // cascade; a message left stored would turn its script into the replay of a retried client_id).
  if (created.length) {
    const ids = `{${created.join(',')}}`;
    await database.db.execute(sql`delete from bookings where id = any(${ids}::uuid[])`);
    await database.db.execute(sql`delete from messages where id = any(${ids}::uuid[])`);
  }
  return captured as Tagged[];
}

type Tagged = Captured & { returned?: string };

/**
 * Never part of a script: the job worker's claim (its own timer, not the request's), the session lookup (the
 * session cache answers it in steady state; recorded now and then when an entry is renewed), and the hints a booking's
 * move sends after its commit (events/hints.ts: its own transaction, many moves' hints in one under load).
 */
const unrelated = (query: string) =>
  /^update "jobs" set "attempts"/.test(query.trim()) ||
  /^select "sessions"\."id"/.test(query.trim()) ||
  /^select rr_send_hints\(/.test(query.trim());

/**
 * One pgbench script per parameter set: `$n` becomes `:k<k>_<n>` (a -D variable, bound as a parameter with
 * -M prepared), a NULL argument is written as NULL, and the id an insert returned (the new booking) is taken from
 * its `\gset` instead of the recorded value.
 */
function script(statements: Tagged[], k: number, vars: Map<string, string>, swap?: Map<string, string>): string {
  const lines: string[] = [];
  /** A recorded value with the twin's ids in place of the recorded booking's (in one pass: a swapped id stays). */
  const ids = swap?.size ? new RegExp([...swap.keys()].join('|'), 'g') : null;
  const swapped = (value: string) => (ids ? value.replace(ids, (id) => swap!.get(id)!) : value);
  for (const c of statements) {
    let text = c.query.trim();
    // pgbench reads ':name' as a variable even inside a string literal: write the time literal without colons.
    text = text.replace(/time '(\d\d):(\d\d)'/g, "time '$1$200'");
    // And a to_char pattern with dots (the same work: a booking's detail writes its times as ISO text).
    text = text.replace(/HH24:MI:SS/g, 'HH24.MI.SS');
    text = text.replace(/\$(\d+)/g, (_, n: string) => {
      const value = c.params[Number(n) - 1];
      if (value === null || value === undefined) return 'NULL';
      // pgbench refuses an empty -D value.
      if (value === '') return "''";
      if (c.returned && value === c.returned) return ':id';
      const name = `k${k}_${lines.length}_${n}`;
      vars.set(name, swapped(typeof value === 'object' ? JSON.stringify(value) : String(value)));
      return `:${name}`;
    });
    const stray = text.match(/(?<!:):(?!k\d+_\d+_\d+\b|id\b)[A-Za-z0-9_]+/);
    if (stray) throw new Error(`pgbench would read ${stray[0]} as a variable in: ${text.slice(0, 200)}`);
    // drizzle's own begin/commit are recorded too: the write's transaction ends in ROLLBACK instead.
    if (/^commit$/i.test(text)) {
      lines.push('ROLLBACK;');
      continue;
    }
    const returnsBooking = c.returned && /^insert into "bookings"/.test(text);
    // A move made by one database function (migration 0040 on), called in autocommit by the API: its transaction
    // ends in ROLLBACK too, as the moves written statement by statement do (a twin's whole request is one already).
    if (/^select rr_\w+\(/.test(text) && !swap) lines.push('BEGIN;', `${text};`, 'ROLLBACK;');
    else lines.push(returnsBooking ? `${text} \\gset` : `${text};`);
  }
  // A twin's request writes in autocommit (the move's read with its hit, the payment claimed, the provider's charge,
  // the move): one transaction ending in ROLLBACK here, so the twin stays as it was for the next run.
  if (swap) return `BEGIN;\n${lines.join('\n')}\nROLLBACK;\n`;
  return `${lines.join('\n')}\n`;
}

function pgbenchBinary(): string {
  const dirs = readdirSync('/usr/lib/postgresql').map((v) => `/usr/lib/postgresql/${v}/bin/pgbench`);
  const found = dirs.find((d) => existsSync(d));
  if (!found) throw new Error('pgbench not found under /usr/lib/postgresql/*/bin (apt-get install postgresql)');
  return found;
}

/** The database functions' time per call in the last run (with track_functions=all: WITH_POSTGRES_OPTIONS). */
async function printFunctionTimes(database: Database) {
  const rows = rowsOf<{ name: string; calls: number; total: number; self: number }>(
    await database.db.execute(sql`
      select funcname as name, calls, round((total_time / calls)::numeric, 3)::float as total,
        round((self_time / calls)::numeric, 3)::float as self
      from pg_stat_user_functions where calls > 0 order by self_time desc`),
  );
  if (rows.length) console.log('  functions (ms per call, total / self):');
  for (const r of rows) console.log(`  ${r.name}: ${r.calls} calls, ${r.total} / ${r.self}`);
}

/** One pgbench run of an endpoint's scripts with `clients` clients: tps, latency and failures. */
async function runPgbench(
  url: string,
  dir: string,
  logName: string,
  job: { name: string; files: string[]; vars: Map<string, string>; clients: number },
): Promise<Omit<CeilingRow, 'endpoint' | 'clients' | 'statements/tx'>> {
  const logPrefix = join(dir, logName);
  const args = [
    ...['-n', '-M', 'prepared', '-c', String(job.clients), '-j', '2', '-T', String(SECONDS)],
    ...['-l', `--log-prefix=${logPrefix}`],
    ...(STATEMENTS ? ['-r'] : []),
    ...job.files.flatMap((f) => ['-f', `${f}@1`]),
    ...[...job.vars].flatMap(([name, value]) => ['-D', `${name}=${value}`]),
    url,
  ];
  // The API's pool plans every statement generically (src/server/db/pool.ts); a custom plan for the literal
  // values can differ (a seq scan where nearly every row matches the date), so pgbench's sessions do the same.
  const env = { ...process.env, PGOPTIONS: '-c plan_cache_mode=force_generic_plan' };
  // A client that meets an error stops (pgbench exits 2) but the others' figures stand: report both.
  const { stdout, aborted } = await run(pgbenchBinary(), args, { maxBuffer: 16 << 20, env }).then(
    (r) => ({ stdout: r.stdout, aborted: '' }),
    (err: { stdout?: string; stderr?: string }) => {
      if (!err.stdout?.includes('tps =')) throw new Error(`pgbench failed for ${job.name}: ${err.stderr ?? ''}`);
      console.error(`[pgbench] ${job.name}: ${err.stderr?.split('\n').slice(0, 3).join(' | ')}`);
      return {
        stdout: err.stdout,
        aborted: ` (${err.stdout.match(/(\d+) of \d+ clients? aborted/)?.[1] ?? 'some'} clients aborted)`,
      };
    },
  );
  if (STATEMENTS) {
    // Each script's statements with their average latency (ms): the first script's, as one example of the endpoint.
    const report = stdout.split(/^SQL script \d+: .*$/m)[1] ?? '';
    const lines = report.split('\n').filter((l) => /^\s+[\d.]+\s+\d+\s+\S/.test(l));
    console.log(`[pgbench] ${job.name}, ${job.clients} clients, statement latencies (ms, failures, statement):`);
    for (const l of lines) console.log(`  ${l.trim().slice(0, 160)}`);
  }
  const tps = Number(stdout.match(/tps = ([\d.]+) \(without initial connection time\)/)?.[1] ?? NaN);
  const avg = Number(stdout.match(/latency average = ([\d.]+) ms/)?.[1] ?? NaN);
  const failed = Number(stdout.match(/number of failed transactions: (\d+)/)?.[1] ?? 0);
  // Per-transaction log lines: client, transaction, latency in µs, ...
  const latencies = readdirSync(dir)
    .filter((f) => f.startsWith(`${logName}.`))
    .flatMap((f) => readFileSync(join(dir, f), 'utf8').trim().split('\n'))
    .map((line) => Number(line.split(' ')[2]) / 1000)
    .sort((a, b) => a - b);
  return {
    'tps (ceiling)': Math.round(tps),
    'latency avg ms': avg,
    'p50 ms': Math.round(percentile(latencies, 50) * 100) / 100,
    'p99 ms': Math.round(percentile(latencies, 99) * 100) / 100,
    failed: `${failed}${aborted}`,
  };
}

/**
 * For each twin endpoint's parameter set, read before recording (the move changes the recorded booking): the ids of
 * the recorded booking (the booking, its request, its driver and requester, its held payment) to those of its twin.
 */
async function twinSwaps(database: Database, list: Endpoint[]) {
  const swaps = new Map<string, Map<string, string>>();
  const idsOf = async (bookingId: string) => {
    const [row] = (
      (await database.db.execute(sql`
        select b.id::text, b.request_id::text, b.driver_id::text, b.requester_id::text,
          (select p.id::text from payments p where p.booking_id = b.id and p.state = 'held') as payment
        from bookings b where b.id = ${bookingId}::uuid`)) as unknown as { rows: Record<string, string | null>[] }
    ).rows;
    if (!row) throw new Error(`no seeded booking ${bookingId}`);
    return [row.id, row.request_id, row.driver_id, row.requester_id, row.payment];
  };
  for (const e of list)
    for (let k = 0; e.twins && k < VARIANTS; k++) {
      const [from, to] = await Promise.all([idsOf(e.twins.recordOn(k)), idsOf(e.twins.replayOn(k))]);
      const swap = new Map<string, string>();
      from.forEach((id, i) => {
        if (id && to[i]) swap.set(id, to[i]);
        else if (id || to[i]) throw new Error(`twin bookings differ: ${from.join(' ')} / ${to.join(' ')}`);
      });
      swaps.set(`${e.name}#${k}`, swap);
    }
  return swaps;
}

/**
 * A payment the recorded move made (choose's) stays stored under its id, and its charge at the embedded provider under
 * its own: the twin's script makes them under new ids (the same in every run of the script, each rolled back).
 */
async function newPaymentIds(database: Database, list: Endpoint[], swaps: Map<string, Map<string, string>>) {
  for (const e of list)
    for (let k = 0; e.twins && k < VARIANTS; k++) {
      const swap = swaps.get(`${e.name}#${k}`)!;
      const made = (
        (await database.db.execute(
          sql`select id::text from payments where booking_id = ${e.twins.recordOn(k)}::uuid`,
        )) as unknown as { rows: { id: string }[] }
      ).rows;
      for (const { id } of made) {
        if (swap.has(id)) continue;
        swap.set(id, randomUUID());
        // And the embedded provider's charge of it, stored under its own id.
        const charges = (
          (await database.db.execute(
            sql`select id from test_provider_charges where idempotency_key = ${`payment:${id}:charge`}`,
          )) as unknown as { rows: { id: string }[] }
        ).rows;
        for (const c of charges) swap.set(c.id, `ch_test_${randomUUID().replaceAll('-', '').slice(0, 24)}`);
      }
    }
}

/** Seeded database at `url`: pgbench each endpoint's recorded SQL and return one row per endpoint and client count. */
export async function pgbenchCeiling(database: Database, url: string, tokens: string[], prep: Prep) {
  const only = process.env.PGBENCH_ONLY?.split(',').map((s) => s.trim().toLowerCase());
  const list = endpoints(prep, tokens.length, await twinPairs(database, prep)).filter(
    (e) => !only || only.some((o) => e.name.toLowerCase().includes(o)),
  );
  const swaps = await twinSwaps(database, list);
  const captured = (await capture(database, tokens, list)).filter((c) => c.label && !unrelated(c.query));
  await newPaymentIds(database, list, swaps);
  const dir = mkdtempSync(join(tmpdir(), 'rr-pgbench-'));
  const rows: CeilingRow[] = [];
  let logs = 0;
  try {
    for (const [index, e] of list.entries()) {
      const vars = new Map<string, string>();
      const files: string[] = [];
      let statements = 0;
      for (let k = 0; k < VARIANTS; k++) {
        const mine = captured.filter((c) => c.label === `${e.name}#${k}`);
        statements += mine.length;
        const file = join(dir, `${index}-${k}.sql`);
        writeFileSync(file, script(mine, k, vars, swaps.get(`${e.name}#${k}`)));
        files.push(file);
      }
      if (process.env.PGBENCH_SHOW === '1') console.log(`-- ${e.name}, script 0:\n${readFileSync(files[0]!, 'utf8')}`);
      // PGBENCH_CLIENTS first (bench:api's connections), then each count of the sweep.
      for (const clients of [PGBENCH_CLIENTS, ...SWEEP.filter((c) => c !== PGBENCH_CLIENTS)]) {
        const waits = WAITS ? sampleWaits(url) : null;
        if (STATEMENTS) await database.db.execute(sql`select pg_stat_reset()`);
        const row = await runPgbench(url, dir, `log${logs++}`, { name: e.name, files, vars, clients });
        if (STATEMENTS) await printFunctionTimes(database);
        if (waits) console.log(`[pgbench] ${e.name}, ${clients} clients, what the backends did: ${await waits.stop()}`);
        rows.push({
          endpoint: e.name,
          clients,
          ...row,
          'statements/tx': Math.round((statements / VARIANTS) * 10) / 10,
        });
        console.log(`[pgbench] ${e.name}, ${clients} clients: ${row['tps (ceiling)']} tps`);
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return rows;
}

async function main() {
  const baseUrl = process.env.DATABASE_URL;
  if (!baseUrl) throw new Error('bench/pgbench.ts needs real PostgreSQL: bash scripts/with-postgres.sh npx tsx ...');
  const started = Date.now();
  const target = await createTarget(baseUrl);
  try {
    const database = await openDatabase({ url: target.url, dataDir: '' });
    try {
      console.log('[pgbench] seeding the data of bench:api…');
      const tokens = await seed(database.db);
      const prep = await prepare(database.db);
      const rows = await pgbenchCeiling(database, target.url!, tokens, prep);
      console.log(
        `\nThe API's SQL driven by pgbench (-M prepared, ${PGBENCH_CLIENTS} clients, 2 threads, ${SECONDS} s each, ${VARIANTS} parameter sets per endpoint; session lookup left out, accept rolled back):`,
      );
      printTable(rows as unknown as Record<string, string | number>[]);
    } finally {
      await database.close();
    }
  } finally {
    await target.cleanup();
    console.log(`[pgbench] done in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  }
}

if (process.argv[1]?.endsWith('pgbench.ts')) await main();
