import type { Client } from 'pg';
import type { PGlite } from '@electric-sql/pglite';
import { sql, type SQL } from 'drizzle-orm';

/**
 * PostgreSQL LISTEN/NOTIFY for this process: one dedicated LISTEN connection shared by every subscriber (session
 * revocation today; live events and job wake-ups later). A notification is delivered only after its sender's
 * transaction commits, and is lost if no connection is listening at that moment, so subscribers that cache
 * must watch `isListening` and stop trusting their cache while it is false.
 */
export interface Notifications {
  /**
   * Calls `onPayload` for every notification on `channel`. `onStatus` hears every change of `isListening(channel)`
   * (it starts false until the LISTEN is in place). Returns the unsubscribe.
   */
  listen(
    channel: string,
    onPayload: (payload: string) => void,
    onStatus?: (listening: boolean) => void,
  ): () => Promise<void>;
  /** True while a notification sent on `channel` now would reach this process's handlers. */
  isListening(channel: string): boolean;
  /** Sends outside any transaction; inside one, put `pgNotify(...)` into the statement instead. */
  notify(channel: string, payload: string): Promise<void>;
  close(): Promise<void>;
}

/** A `pg_notify(...)` call to put into a statement, so the notification goes out only if that statement commits. */
export function pgNotify(channel: string, payload: SQL | string): SQL {
  return sql`pg_notify(${checkChannel(channel)}, ${payload})`;
}

export interface ReconnectPolicy {
  /** First retry delay after the LISTEN connection drops; doubles per failed attempt up to maxMs. */
  minMs: number;
  maxMs: number;
  /** How often the idle connection is checked with a query: a half-open TCP connection delivers nothing. */
  pingMs: number;
}

export const defaultReconnect: ReconnectPolicy = { minMs: 100, maxMs: 5_000, pingMs: 10_000 };

/**
 * Real PostgreSQL: a separate pg.Client (a pool client could be handed back and its LISTEN lost). When it drops,
 * every channel reports not listening until a new connection has issued LISTEN again; retries back off with jitter.
 */
export function pgNotifications(
  connect: () => Client,
  send: (query: SQL) => Promise<unknown>,
  policy: ReconnectPolicy = defaultReconnect,
): Notifications {
  const hub = new Hub();
  let client: Client | null = null;
  let active = new Set<string>();
  let started = false;
  let closed = false;
  let attempt = 0;
  let retry: NodeJS.Timeout | undefined;
  let ping: NodeJS.Timeout | undefined;

  /**
   * The LISTEN connection's statements, one at a time: a LISTEN for a new channel can come while the connection is
   * still opening, listening on the others or pinging, and pg deprecates queueing a query behind another (pg 9
   * refuses it).
   */
  let pending: Promise<unknown> = Promise.resolve();
  function serially(on: Client, text: string): Promise<unknown> {
    const run = pending.then(() => on.query(text));
    pending = run.catch(() => undefined);
    return run;
  }

  /** Forgets the current connection (its LISTENs die with it); the caller decides whether to retry. */
  function release(): Promise<void> {
    const dead = client;
    if (!dead) return Promise.resolve();
    client = null;
    clearInterval(ping);
    dead.removeAllListeners('notification');
    dead.on('error', () => {});
    const was = active;
    active = new Set();
    hub.statusChanged(was, active);
    return dead.end().catch(() => {});
  }

  function drop(reason: string) {
    if (!client || closed) return;
    void release();
    const delay = Math.min(policy.maxMs, policy.minMs * 2 ** attempt) * (0.75 + 0.5 * Math.random());
    attempt += 1;
    if (attempt === 1)
      console.warn(
        `[db] LISTEN connection down (${reason}); reconnecting (subscribers that cache stop trusting it meanwhile)`,
      );
    retry = setTimeout(() => void open(), delay);
    retry.unref();
  }

  async function open() {
    if (closed || client) return;
    const next = connect();
    client = next;
    next.on('notification', (msg) => hub.deliver(msg.channel, msg.payload ?? ''));
    next.on('error', (err) => drop(err.message));
    next.on('end', () => drop('connection ended'));
    try {
      // The connection's first statement: a LISTEN asked for meanwhile waits for it.
      await (pending = next.connect().then(() => undefined));
      for (const channel of hub.channels()) await listenOn(next, channel);
    } catch (err) {
      if (client === next) drop((err as Error).message);
      return;
    }
    if (client !== next) return;
    if (attempt > 0) console.warn('[db] LISTEN connection restored');
    attempt = 0;
    ping = setInterval(
      () => serially(next, 'SELECT 1').catch((err: Error) => client === next && drop(err.message)),
      policy.pingMs,
    );
    ping.unref();
  }

  async function listenOn(on: Client, channel: string) {
    await serially(on, `LISTEN "${channel}"`);
    if (client !== on || active.has(channel)) return;
    const was = new Set(active);
    active.add(channel);
    hub.statusChanged(was, active);
  }

  return {
    listen(channel, onPayload, onStatus) {
      const unsubscribe = hub.add(checkChannel(channel), onPayload, onStatus);
      if (active.has(channel)) onStatus?.(true);
      if (!started) {
        started = true;
        void open();
      } else if (client && !active.has(channel)) {
        const on = client;
        listenOn(on, channel).catch((err: Error) => client === on && drop(err.message));
      }
      // The LISTEN stays in place until the connection closes: a stray notification without handlers is ignored.
      return async () => unsubscribe();
    },
    isListening: (channel) => active.has(channel),
    notify: async (channel, payload) => void (await send(sql`select ${pgNotify(channel, payload)}`)),
    async close() {
      closed = true;
      clearTimeout(retry);
      await release();
    },
  };
}

/** PGlite: one process, one connection; its in-process listen is always delivered. */
export function pgliteNotifications(db: PGlite): Notifications {
  const hub = new Hub();
  const active = new Set<string>();
  const registered = new Map<string, Promise<unknown>>();
  return {
    listen(channel, onPayload, onStatus) {
      const unsubscribe = hub.add(checkChannel(channel), onPayload, onStatus);
      if (active.has(channel)) onStatus?.(true);
      if (!registered.has(channel)) {
        registered.set(
          channel,
          db
            .listen(channel, (payload) => hub.deliver(channel, payload))
            .then(() => {
              const was = new Set(active);
              active.add(channel);
              hub.statusChanged(was, active);
            }),
        );
      }
      return async () => unsubscribe();
    },
    isListening: (channel) => active.has(channel),
    notify: async (channel, payload) => void (await db.query('select pg_notify($1, $2)', [channel, payload])),
    async close() {
      await Promise.allSettled(registered.values());
    },
  };
}

interface Subscriber {
  onPayload: (payload: string) => void;
  onStatus?: (listening: boolean) => void;
}

/** Handlers per channel; a throwing handler is logged and does not stop the others. */
class Hub {
  private readonly subscribers = new Map<string, Set<Subscriber>>();

  channels(): string[] {
    return [...this.subscribers.keys()];
  }

  add(channel: string, onPayload: Subscriber['onPayload'], onStatus?: Subscriber['onStatus']): () => void {
    const sub: Subscriber = { onPayload, onStatus };
    let set = this.subscribers.get(channel);
    if (!set) this.subscribers.set(channel, (set = new Set()));
    set.add(sub);
    return () => set.delete(sub);
  }

  deliver(channel: string, payload: string): void {
    for (const sub of this.subscribers.get(channel) ?? []) guard(() => sub.onPayload(payload));
  }

  statusChanged(before: ReadonlySet<string>, after: ReadonlySet<string>): void {
    for (const [channel, subs] of this.subscribers) {
      const now = after.has(channel);
      if (before.has(channel) === now) continue;
      for (const sub of subs) if (sub.onStatus) guard(() => sub.onStatus?.(now));
    }
  }
}

function guard(fn: () => void) {
  try {
    fn();
  } catch (err) {
    console.error('[db] notification handler failed:', err);
  }
}

/** Channel names go into LISTEN as identifiers: plain lower-case names only. */
function checkChannel(channel: string): string {
  if (!/^[a-z][a-z0-9_]{0,62}$/.test(channel)) throw new Error(`invalid notification channel: ${channel}`);
  return channel;
}
