/**
 * What one statement's round trip costs the API process on this machine, apart from any SQL:
 * `bash scripts/with-postgres.sh npx tsx bench/round-trip.ts` sends `select $1::int` (a named prepared statement,
 * as the API's lists are) through node-postgres on 1, 4, 10 and 50 connections, one statement after another on each,
 * and prints statements/s with this process's user and system CPU per statement. The statement itself executes in a
 * few microseconds inside PostgreSQL, so the figures are the driver's and the kernel's part of every query the API
 * sends: the floor under each extra statement of a request (docs/decisions/024-tail-latency.md).
 * ROUND_TRIPS (default 20,000 per row) and ROUND_TRIP_CONNECTIONS (e.g. "1,10") change the rows.
 */
import { loadavg } from 'node:os';
import pg from 'pg';
import { printTable } from './lib';

const url = process.env.DATABASE_URL;
if (!url) throw new Error('DATABASE_URL is not set: run through scripts/with-postgres.sh');
const TOTAL = Number(process.env.ROUND_TRIPS ?? 20_000);
const CONNECTIONS = (process.env.ROUND_TRIP_CONNECTIONS ?? '1,4,10,50').split(',').map(Number);

const rows: Record<string, string | number>[] = [];
console.log(`[round-trip] load average before: ${loadavg()[0]!.toFixed(1)}`);
for (const connections of CONNECTIONS) {
  const clients = await Promise.all(
    Array.from({ length: connections }, async () => {
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      // Prepared on each connection before the clock starts, as the API's statements are after their first use.
      await client.query({ name: 'round_trip', text: 'select $1::int as n', values: [0] });
      return client;
    }),
  );
  const each = Math.ceil(TOTAL / connections);
  const cpu = process.cpuUsage();
  const started = performance.now();
  await Promise.all(
    clients.map(async (client) => {
      for (let i = 0; i < each; i++) {
        const result = await client.query({ name: 'round_trip', text: 'select $1::int as n', values: [i] });
        if (result.rows[0]?.n !== i) throw new Error('wrong answer');
      }
    }),
  );
  const ms = performance.now() - started;
  const used = process.cpuUsage(cpu);
  const n = each * connections;
  rows.push({
    connections,
    statements: n,
    'statements/s': Math.round((n / ms) * 1000),
    'wall µs each (per connection)': Math.round((ms * 1000 * connections) / n),
    'user CPU µs each': Number((used.user / n).toFixed(1)),
    'system CPU µs each': Number((used.system / n).toFixed(1)),
  });
  await Promise.all(clients.map((client) => client.end()));
}
printTable(rows);
console.log(`[round-trip] load average after: ${loadavg()[0]!.toFixed(1)}`);
