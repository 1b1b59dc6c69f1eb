/**
 * `npm run bench:events` (real PostgreSQL: `bash scripts/with-postgres.sh npm run bench:events`): the live event
 * stream under load. Seeds BENCH_STREAMS users (default 2,000) with sessions, pairs them in bookings, starts
 * the API in its own process, opens one `GET /api/events` stream per user (all on one instance), then sends
 * BENCH_MESSAGE_RATE messages a second (default 200) for BENCH_SECONDS between the two people of random bookings, at a
 * steady rate (open loop). Prints the delivery latency to the recipient's stream (from the send's start, and from
 * the moment the send was accepted), how many events were lost, and the server's resident memory with every stream
 * open and at its peak. Then measures the conversation list and a conversation page of 500 messages with autocannon.
 * Goals: delivery p99 under 100 ms, resident memory under 300 MB.
 */
import type { ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import { loadavg } from 'node:os';
import autocannon from 'autocannon';
import { sql } from 'drizzle-orm';
import { hashToken } from '../src/server/auth/tokens';
import { openDatabase, type Database } from '../src/server/db/client';
import { createTarget, freePort, percentile, printTable, startServer, stopServer } from './lib';

const baseUrl = process.env.DATABASE_URL;
const STREAMS = Number(process.env.BENCH_STREAMS ?? 2000);
const RATE = Number(process.env.BENCH_MESSAGE_RATE ?? 200);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 20);
const LIST_SECONDS = Number(process.env.BENCH_LIST_SECONDS ?? 5);
/** One user is in this many extra conversations, for the conversation-list measurement. */
const BUSY_CONVERSATIONS = 60;
const LONG_CONVERSATION = 500;

const token = (i: number) => `bench-events-token-${String(i).padStart(6, '0')}-rr`;
const DUMMY_HASH = '$argon2id$v=19$m=19456,t=2,p=1$YmVuY2hzYWx0YmVuY2g$0000000000000000000000000000000000000000000';

const rows = async <T>(db: Database['db'], query: ReturnType<typeof sql>) =>
  ((await db.execute(query)) as unknown as { rows: T[] }).rows;

interface Pair {
  booking: string;
  /** Token indexes of the two people. */
  a: number;
  b: number;
}

/**
 * Users 1..STREAMS with sessions; user k requests one delivery and user k+1 (wrapping) offers on it, so every user is
 * in two conversations. User 1 is also in BUSY_CONVERSATIONS more, one of them LONG_CONVERSATION messages long.
 */
export async function seed(db: Database['db']): Promise<{ pairs: Pair[]; busyBooking: string }> {
  await db.execute(sql`
    insert into users (email, password_hash, age_confirmed_at)
    select 'events' || g || '@example.com', ${DUMMY_HASH}, now() from generate_series(1, ${STREAMS}) g`);
  await db.execute(sql`
    insert into profiles (user_id, full_name)
    select id, 'Neighbour ' || substring(email from 7 for position('@' in email) - 7) from users`);
  const tokens = Array.from({ length: STREAMS }, (_, i) => hashToken(token(i + 1)));
  await db.execute(sql`
    insert into sessions (token_hash, user_id, expires_at)
    select h.hash, u.id, now() + interval '30 days'
    from unnest(${`{${tokens.join(',')}}`}::text[]) with ordinality as h(hash, n)
    join users u on u.email = 'events' || h.n || '@example.com'`);
  const userNo = sql.raw(`substring(u.email from 7 for position('@' in u.email) - 7)::int`);
  await db.execute(sql`
    insert into delivery_requests (user_id, title, description, pickup_location, delivery_location)
    select u.id, 'Parcel for ' || ${userNo}, 'A box of preserves', 'Co-op', 'Hill Farm' from users u`);
  // Driver of request k: user k % STREAMS + 1; plus user 1 offering on BUSY_CONVERSATIONS more requests.
  await db.execute(sql`
    with r as (select r.id, ${userNo} as n, r.user_id from delivery_requests r join users u on u.id = r.user_id)
    insert into bookings (request_id, driver_id, requester_id, status)
    select r.id, d.id, r.user_id, 'pending' from r join users d on d.email = 'events' || (r.n % ${STREAMS} + 1) || '@example.com'
    union all
    select r.id, d.id, r.user_id, 'pending' from r join users d on d.email = 'events1@example.com'
    where r.n between 3 and ${BUSY_CONVERSATIONS + 2}`);
  const pairs = (
    await rows<{ booking: string; a: number; b: number }>(
      db,
      sql`select b.id::text as booking,
            substring(d.email from 7 for position('@' in d.email) - 7)::int - 1 as a,
            substring(q.email from 7 for position('@' in q.email) - 7)::int - 1 as b
          from bookings b join users d on d.id = b.driver_id join users q on q.id = b.requester_id`,
    )
  ).map((p) => ({ ...p, a: Number(p.a), b: Number(p.b) }));
  const [busy] = await rows<{ id: string }>(
    db,
    sql`select b.id::text as id from bookings b join users d on d.id = b.driver_id join delivery_requests r
          on r.id = b.request_id join users q on q.id = r.user_id
        where d.email = 'events1@example.com' and q.email = 'events3@example.com'`,
  );
  if (!busy) throw new Error('seed: no busy booking');
  await db.execute(sql`
    insert into messages (booking_id, sender_id, client_id, body, created_at)
    select b.id, case when g % 2 = 0 then b.driver_id else b.requester_id end, gen_random_uuid(),
      'Message ' || g || ': I can meet you by the co-op at ten.', now() - make_interval(secs => ${LONG_CONVERSATION} - g)
    from bookings b cross join generate_series(1, ${LONG_CONVERSATION}) g where b.id = ${busy.id}`);
  await db.execute(sql`
    update bookings b set last_message_at = m.at, activity_at = m.at
    from (select booking_id, max(created_at) at from messages group by booking_id) m where m.booking_id = b.id`);
  await db.execute(sql`vacuum analyze`);
  return { pairs, busyBooking: busy.id };
}

/** One SSE connection: calls `onEvent` per event; resolves `ready` on the stream's first event. */
function openStream(port: number, userIndex: number, agent: http.Agent, onEvent: (name: string, data: string) => void) {
  let resolveReady!: () => void;
  let rejectReady!: (e: Error) => void;
  const ready = new Promise<void>((res, rej) => ((resolveReady = res), (rejectReady = rej)));
  const req = http.get(
    {
      host: '127.0.0.1',
      port,
      path: '/api/events',
      agent,
      headers: { authorization: `Bearer ${token(userIndex + 1)}`, accept: 'text/event-stream' },
    },
    (res) => {
      if (res.statusCode !== 200) {
        rejectReady(new Error(`stream ${userIndex}: HTTP ${res.statusCode}`));
        res.resume();
        return;
      }
      res.setEncoding('utf8');
      let buffer = '';
      res.on('data', (chunk: string) => {
        buffer += chunk;
        let end: number;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          let name = 'message';
          const data: string[] = [];
          for (const line of block.split('\n')) {
            if (line.startsWith('event:')) name = line.slice(6).trim();
            else if (line.startsWith('data:')) data.push(line.slice(5).replace(/^ /, ''));
          }
          if (!data.length) continue;
          if (name === 'ready') resolveReady();
          onEvent(name, data.join('\n'));
        }
      });
    },
  );
  req.on('error', (e) => rejectReady(e));
  return { ready, close: () => req.destroy() };
}

function rssMb(child: ChildProcess): number {
  const status = readFileSync(`/proc/${child.pid}/status`, 'utf8');
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? NaN);
  return kb / 1024;
}

const fmt = (n: number) => (Number.isFinite(n) ? n.toFixed(1) : '-');

async function main() {
  if (!baseUrl) {
    console.error('bench:events needs real PostgreSQL: bash scripts/with-postgres.sh npm run bench:events');
    process.exit(2);
  }
  console.log(
    `load average before the run: ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
  const target = await createTarget(baseUrl);
  let server: ChildProcess | undefined;
  try {
    const database = await openDatabase({ url: target.url, dataDir: '' });
    const t0 = performance.now();
    const { pairs, busyBooking } = await seed(database.db);
    await database.close();
    console.log(
      `seeded ${STREAMS} users, ${pairs.length} bookings in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
    );

    const port = await freePort();
    ({ child: server } = await startServer(
      {
        PORT: String(port),
        DATABASE_URL: target.url ?? '',
        NODE_ENV: 'production',
        WRITE_LIMIT_PER_USER_MAX: '1000000000',
        MESSAGE_LIMIT_PER_USER_MAX: '1000000000',
      },
      { script: 'bench/server.ts' },
    ));
    const rssIdle = rssMb(server);

    // Sent messages by client_id: when the send started and when it was accepted.
    const sent = new Map<string, { start: number; accepted?: number; recipient: number }>();
    const fromStart: number[] = [];
    const fromAccepted: number[] = [];
    let received = 0;
    const streamAgent = new http.Agent({ keepAlive: false, maxSockets: Infinity });
    const streams = [] as ReturnType<typeof openStream>[];
    const tOpen = performance.now();
    for (let i = 0; i < STREAMS; i++) {
      streams.push(
        openStream(port, i, streamAgent, (name, data) => {
          if (name !== 'message.created') return;
          const at = performance.now();
          const clientId = (JSON.parse(data) as { message: { client_id: string } }).message.client_id;
          const s = sent.get(clientId);
          if (!s || s.recipient !== i) return; // the sender's own echo
          received += 1;
          fromStart.push(at - s.start);
          if (s.accepted !== undefined) fromAccepted.push(Math.max(0, at - s.accepted));
          else s.accepted = -at; // arrived before the answer: 0 ms after acceptance, recorded when it comes
        }),
      );
      // Open in small batches so the accept queue never overflows.
      if (i % 100 === 99) await Promise.all(streams.slice(i - 99, i + 1).map((s) => s.ready));
    }
    await Promise.all(streams.map((s) => s.ready));
    const openSeconds = (performance.now() - tOpen) / 1000;
    const rssOpen = rssMb(server);
    console.log(`${STREAMS} streams open in ${openSeconds.toFixed(1)} s; server RSS ${rssOpen.toFixed(0)} MB`);

    const sendAgent = new http.Agent({ keepAlive: true, maxSockets: 64 });
    let refused = 0;
    let peakRss = rssOpen;
    const rssTimer = setInterval(() => (peakRss = Math.max(peakRss, rssMb(server!))), 250);
    const total = RATE * SECONDS;
    const started = performance.now();
    const inflight: Promise<void>[] = [];
    for (let n = 0; n < total; n++) {
      const due = started + (n * 1000) / RATE;
      const wait = due - performance.now();
      if (wait > 1) await new Promise((r) => setTimeout(r, wait));
      const pair = pairs[Math.floor(Math.random() * pairs.length)]!;
      const [from, to] = Math.random() < 0.5 ? [pair.a, pair.b] : [pair.b, pair.a];
      const clientId = randomUUID();
      const entry = { start: performance.now(), recipient: to } as {
        start: number;
        accepted?: number;
        recipient: number;
      };
      sent.set(clientId, entry);
      const body = JSON.stringify({ body: `Can you bring it Tuesday? (${n})`, client_id: clientId });
      inflight.push(
        new Promise<void>((resolve) => {
          const req = http.request(
            {
              host: '127.0.0.1',
              port,
              method: 'POST',
              path: `/api/bookings/${pair.booking}/messages`,
              agent: sendAgent,
              headers: {
                authorization: `Bearer ${token(from + 1)}`,
                'content-type': 'application/json',
                'content-length': Buffer.byteLength(body),
                origin: `http://127.0.0.1:${port}`,
              },
            },
            (res) => {
              res.resume();
              res.on('end', () => {
                const now = performance.now();
                if (res.statusCode !== 201) refused += 1;
                if (entry.accepted !== undefined && entry.accepted < 0) fromAccepted.push(0);
                entry.accepted = now;
                resolve();
              });
            },
          );
          req.on('error', () => {
            refused += 1;
            resolve();
          });
          req.end(body);
        }),
      );
    }
    await Promise.all(inflight);
    const sendSeconds = (performance.now() - started) / 1000;
    await new Promise((r) => setTimeout(r, 2000)); // stragglers
    clearInterval(rssTimer);
    for (const s of streams) s.close();
    fromStart.sort((x, y) => x - y);
    fromAccepted.sort((x, y) => x - y);

    console.log(
      `\nLive delivery: ${total} messages at ${RATE}/s offered (${(total / sendSeconds).toFixed(0)}/s sent), ${STREAMS} open streams, one instance`,
    );
    printTable([
      {
        measure: 'send start -> recipient event (ms)',
        p50: fmt(percentile(fromStart, 50)),
        p90: fmt(percentile(fromStart, 90)),
        p99: fmt(percentile(fromStart, 99)),
        max: fmt(fromStart.at(-1) ?? NaN),
      },
      {
        measure: 'send accepted -> recipient event (ms)',
        p50: fmt(percentile(fromAccepted, 50)),
        p90: fmt(percentile(fromAccepted, 90)),
        p99: fmt(percentile(fromAccepted, 99)),
        max: fmt(fromAccepted.at(-1) ?? NaN),
      },
    ]);
    console.log(
      `delivered ${received} of ${total - refused} accepted (lost ${total - refused - received}); refused ${refused}`,
    );
    console.log(
      `server RSS: idle ${rssIdle.toFixed(0)} MB, ${STREAMS} streams open ${rssOpen.toFixed(0)} MB, peak during sends ${peakRss.toFixed(0)} MB`,
    );

    // Let the closed streams and the last sends settle before measuring reads, and let the planner see the messages
    // just written (autovacuum would analyze a table that grew ninefold within its next minute on a live server).
    await new Promise((r) => setTimeout(r, 3000));
    const analyzer = await openDatabase({ url: target.url, dataDir: '', migrate: false });
    await analyzer.db.execute(sql`analyze messages, bookings`);
    await analyzer.close();
    // Reading: the conversation list of a user in BUSY_CONVERSATIONS + 2 conversations, and a long conversation.
    const listRows: Record<string, string | number>[] = [];
    for (const [name, path] of [
      ['GET /api/messages/conversations (62 conversations)', '/api/messages/conversations'],
      [
        `GET /api/bookings/:id/messages (${LONG_CONVERSATION} messages, page 1)`,
        `/api/bookings/${busyBooking}/messages`,
      ],
      ['GET /api/messages/unread', '/api/messages/unread'],
    ] as const) {
      const result = await autocannon({
        url: `http://127.0.0.1:${port}${path}`,
        connections: 20,
        duration: LIST_SECONDS,
        headers: { authorization: `Bearer ${token(1)}` },
      });
      listRows.push({
        endpoint: name,
        'req/s': result.requests.average.toFixed(0),
        'p50 ms': result.latency.p50,
        'p99 ms': result.latency.p99,
        non2xx: result.non2xx,
      });
    }
    console.log('\nReading (closed loop, 20 connections):');
    printTable(listRows);
  } finally {
    if (server) await stopServer(server);
    await target.cleanup();
  }
}

if (process.argv[1]?.endsWith('events.ts')) await main();
