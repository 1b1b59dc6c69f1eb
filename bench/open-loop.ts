import { Agent, request } from 'node:http';
import { percentile } from './lib';

export interface OpenLoopResult {
  sent: number;
  ok: number;
  /** Answers outside 2xx plus requests that got no answer: never timed. */
  failed: number;
  /** Answers outside 2xx (4xx, 5xx), by status. */
  non2xx: number;
  statuses: Record<number, number>;
  /** Requests that got no answer (socket errors). */
  errors: number;
  servedPerSecond: number;
  p50: number;
  p99: number;
  max: number;
}

/**
 * Sends requests on a steady schedule (`rate` per second, spread evenly) over at most `connections` keep-alive
 * sockets, for `seconds`. autocannon's rate option sends each connection's per-second quota back to back when its
 * second starts, i.e. in bursts at full speed; this measures latency at a steady rate instead. Each latency runs
 * from the request's scheduled time, so time spent waiting for a free socket counts against the server (no
 * coordinated omission).
 */
export async function openLoop(opts: {
  port: number;
  rate: number;
  seconds: number;
  connections: number;
  path: (i: number) => string;
  headers: (i: number) => Record<string, string>;
  /** GET unless told; a body (a write) is sent with its Content-Length. */
  method?: string;
  body?: (i: number) => Buffer;
}): Promise<OpenLoopResult> {
  const agent = new Agent({ keepAlive: true, maxSockets: opts.connections });
  const total = Math.round(opts.rate * opts.seconds);
  const latencies: number[] = [];
  const statuses: Record<number, number> = {};
  let non2xx = 0;
  let errors = 0;
  const start = performance.now();
  const inFlight: Promise<void>[] = [];

  const send = (i: number, scheduledAt: number) =>
    new Promise<void>((resolve) => {
      const body = opts.body?.(i);
      const headers = body ? { ...opts.headers(i), 'content-length': String(body.length) } : opts.headers(i);
      const req = request(
        { host: '127.0.0.1', port: opts.port, method: opts.method ?? 'GET', path: opts.path(i), headers, agent },
        (res) => {
          res.resume();
          res.on('end', () => {
            const status = res.statusCode ?? 0;
            if (status >= 200 && status < 300) latencies.push(performance.now() - scheduledAt);
            else {
              non2xx++;
              statuses[status] = (statuses[status] ?? 0) + 1;
            }
            resolve();
          });
        },
      );
      req.on('error', () => {
        errors++;
        resolve();
      });
      req.end(body);
    });

  let next = 0;
  while (next < total) {
    const now = performance.now();
    // Everything due by now goes out; the loop wakes every millisecond.
    while (next < total && start + (next * 1000) / opts.rate <= now) {
      inFlight.push(send(next, start + (next * 1000) / opts.rate));
      next++;
    }
    await new Promise((r) => setTimeout(r, 1));
  }
  await Promise.all(inFlight);
  const elapsed = (performance.now() - start) / 1000;
  agent.destroy();
  latencies.sort((a, b) => a - b);
  return {
    sent: total,
    ok: latencies.length,
    failed: non2xx + errors,
    non2xx,
    statuses,
    errors,
    servedPerSecond: Math.round(latencies.length / elapsed),
    p50: Math.round(percentile(latencies, 50) * 10) / 10,
    p99: Math.round(percentile(latencies, 99) * 10) / 10,
    max: Math.round((latencies.at(-1) ?? NaN) * 10) / 10,
  };
}
