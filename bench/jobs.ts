/**
 * `npm run bench:jobs` (real PostgreSQL: `bash scripts/with-postgres.sh npm run bench:jobs`): the e-mail outbox's
 * throughput. Starts the compiled API (`npm run build` first) with SMTP_URL pointing at a real SMTP server
 * in this process (smtp-server, the tests' sink), seeds BENCH_JOBS notifications (default 2,000) with their
 * 'notification-email' jobs held back, then releases them all at once and times until the SMTP server has received
 * every mail. Prints jobs a second, the time from release to each mail (p50/p99/max), and how many mails came twice,
 * for each JOBS_CONCURRENCY in BENCH_JOBS_CONCURRENCY (default "4,16") and, on real PostgreSQL, with two instances
 * sharing the queue. The mails are composed for real (words, link, unsubscribe token) by the app's job handler.
 */
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { openDatabase, type Database } from '../src/server/db/client';
import { startSmtpSink } from '../src/server/test/smtp-sink';
import { createTarget, percentile, printTable, startServer, stopServer } from './lib';

const baseUrl = process.env.DATABASE_URL;
const JOBS = Number(process.env.BENCH_JOBS ?? 2000);
const USERS = 500;
const CONCURRENCIES = (process.env.BENCH_JOBS_CONCURRENCY ?? '4,16').split(',').map(Number);
const DUMMY_HASH = '$argon2id$v=19$m=19456,t=2,p=1$YmVuY2hzYWx0YmVuY2g$0000000000000000000000000000000000000000000';

async function seedUsers(db: Database['db']): Promise<void> {
  await db.execute(sql`
    insert into users (email, password_hash, age_confirmed_at)
    select 'jobs' || g || '@example.com', ${DUMMY_HASH}, now() from generate_series(1, ${USERS}) g`);
  await db.execute(sql`insert into profiles (user_id, full_name) select id, 'Neighbour ' || id from users`);
}

/** BENCH_JOBS offer notifications spread over the users, each with its e-mail job due in a day (held back). */
async function seedJobs(db: Database['db'], round: number): Promise<void> {
  await db.execute(sql`
    with n as (
      insert into notifications (user_id, type, data)
      select u.id, 'offer_received', jsonb_build_object(
        'actor_name', 'Sam Driver', 'title', 'Feed sacks ' || ${round} || '-' || g,
        'request_id', gen_random_uuid(), 'booking_id', gen_random_uuid())
      from generate_series(1, ${JOBS}) g
      join lateral (select id from users order by id offset (g % ${USERS}) limit 1) u on true
      returning id
    )
    insert into jobs (kind, payload, run_at)
    select 'notification-email', jsonb_build_object('notification_id', n.id), now() + interval '1 day' from n`);
}

async function release(db: Database['db']): Promise<void> {
  await db.execute(sql`update jobs set run_at = now() where status = 'queued'`);
  await db.execute(sql`select pg_notify('rr_jobs', '')`);
}

async function main() {
  console.log(
    `load average before: ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
  if (!baseUrl) throw new Error('bench:jobs runs on real PostgreSQL: bash scripts/with-postgres.sh npm run bench:jobs');
  console.log(`database: real PostgreSQL; ${JOBS} mails per run`);
  const target = await createTarget(baseUrl);
  // The data directory only holds the instance lock and logs here: mails go to the SMTP server.
  const dataDir = mkdtempSync(join(tmpdir(), 'rr-bench-jobs-'));
  const received = new Map<string, number>();
  let released = 0;
  let duplicates = 0;
  const sink = await startSmtpSink({
    accept(mail) {
      if (received.has(mail.messageId)) duplicates += 1;
      else received.set(mail.messageId, performance.now() - released);
      return undefined;
    },
  });
  const rows: Record<string, string | number>[] = [];
  let database: Database | undefined;
  const children: ChildProcess[] = [];
  try {
    let round = 0;
    for (const instances of [1, 2])
      for (const concurrency of CONCURRENCIES) {
        round += 1;
        const env = {
          NODE_ENV: 'production',
          HOST: '127.0.0.1',
          DATA_DIR: dataDir,
          DATABASE_URL: target.url!,
          SMTP_URL: sink.url,
          APP_URL: 'https://ruralroute.example',
          JOBS_CONCURRENCY: String(concurrency),
          JOBS_POLL_MS: '1000',
          SERVE_CLIENT: 'false',
        };
        // The first server migrates; the bench seeds once the schema is there.
        for (let i = 0; i < instances; i += 1) children.push((await startServer(env)).child);
        if (!database) {
          database = await openDatabase({ url: target.url!, dataDir: '', prepare: false });
          await seedUsers(database.db);
        }
        await seedJobs(database.db, round);
        received.clear();
        duplicates = 0;
        released = performance.now();
        await release(database.db);
        while (received.size < JOBS) {
          if (performance.now() - released > 300_000) throw new Error(`only ${received.size} of ${JOBS} arrived`);
          await new Promise((r) => setTimeout(r, 20));
        }
        const all = [...received.values()].sort((a, b) => a - b);
        const seconds = all[all.length - 1]! / 1000;
        rows.push({
          instances,
          JOBS_CONCURRENCY: concurrency,
          mails: JOBS,
          'jobs/s': Math.round(JOBS / seconds),
          'to mail p50 ms': Math.round(percentile(all, 50)),
          'p99 ms': Math.round(percentile(all, 99)),
          'max ms': Math.round(all[all.length - 1]!),
          'sent twice': duplicates,
        });
        while (children.length) await stopServer(children.pop()!);
      }
  } finally {
    while (children.length) await stopServer(children.pop()!);
    await database?.close();
    await sink.close();
    await target.cleanup();
    rmSync(dataDir, { recursive: true, force: true });
  }
  console.log('\nE-mail outbox throughput (notification mails composed by the app, sent to a local SMTP server):');
  printTable(rows);
  console.log(
    `load average after: ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
}

await main();
