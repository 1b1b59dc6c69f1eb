import { and, asc, eq, gt, inArray, min } from 'drizzle-orm';
import type { Db } from '../db/client';
import type { Notifications } from '../db/notify';
import { eventStreams, userEvents } from '../db/schema';
import { EVENTS_CHANNEL } from './outbox';
import { sweepEvents } from './sweep';

/**
 * The live event hub of one app instance (docs/events.md). It holds the open event streams of this process, hears
 * every outbox notification once (one LISTEN on EVENTS_CHANNEL for the whole process), and writes each user's
 * events to that user's streams exactly once, in order, with their per-user sequence numbers as SSE ids.
 *
 * The database is the truth: a notification is only a hint. One that carries its data and is the very next event
 * of a stream is written directly; anything else (a gap, a notification without data, the LISTEN connection coming
 * back after an outage, a poll while it is down, a stream found behind its user's head on a heartbeat) makes the
 * stream read what it has not sent from user_events.
 * Each stream runs its work one task at a time, so these paths never interleave or repeat an event.
 */

/** Where a stream's events go: the HTTP layer (events/routes.ts) writes them as SSE. */
export interface LiveSink {
  send(event: { event: string; data: string; id: string; retry?: number }): Promise<unknown>;
  /** An SSE comment line (the heartbeat). */
  comment(text: string): Promise<unknown>;
}

/** How the hub hears of ended sessions: app.ts wires it to the auth service (no feature imports another here). */
export interface SessionWatch {
  /** The NOTIFY channel of revocations; payload `token:<sha-256 hex of the token>` or `user:<id>`. */
  channel: string;
  hash(token: string): string;
  /** The user the token signs in now, or null when the session is gone (signed out, expired, revoked). */
  userOf(token: string): Promise<string | null>;
}

export interface HubOptions {
  heartbeatMs: number;
  retentionHours: number;
  /** How often user_events older than the retention are deleted (every instance may; it is idempotent). */
  sweepEveryMs?: number;
  session?: SessionWatch;
  /**
   * An event's data as the client gets it, from its data as stored (app.ts wires the notifications' wording: an
   * event written by a database function carries the row, worded when sent). Default: as stored.
   */
  word?: (type: string, data: unknown) => unknown;
}

export interface ConnectInput {
  userId: string;
  /** The session token of the request, re-checked on every heartbeat and on every revocation. */
  token?: string;
  /** `Last-Event-ID` (or `?last_event_id=`): resume after it; absent for a fresh connection. */
  lastEventId?: string;
  sink: LiveSink;
}

export interface LiveConnection {
  /** Resolves when the stream has ended (closed by the server, the client, or the hub). */
  readonly done: Promise<void>;
  close(): void;
}

/** The `retry:` field of the first event: how long a browser waits before reconnecting. */
export const RETRY_MS = 2000;
/** Rows read per query when a stream catches up from user_events. */
const PUMP_BATCH = 200;
/** Users whose heads one read of the heartbeat's catch-up compares. */
const HEADS_BATCH = 1000;
const HOUR_MS = 3_600_000;

interface Notice {
  u: string;
  s: number;
  t?: string;
  d?: unknown;
}

class Stream implements LiveConnection {
  /** The id of the last event written; -1 until the stream knows where it starts. */
  last = -1;
  closed = false;
  readonly done: Promise<void>;
  readonly tokenHash: string | null;
  private chain: Promise<void> = Promise.resolve();
  private finish!: () => void;

  constructor(
    readonly userId: string,
    readonly token: string | undefined,
    readonly sink: LiveSink,
    hash: ((token: string) => string) | undefined,
    private readonly onClose: (s: Stream) => void,
  ) {
    this.tokenHash = token && hash ? hash(token) : null;
    this.done = new Promise((resolve) => (this.finish = resolve));
  }

  /** Runs `task` after every task queued before it; a failing task ends the stream (the client reconnects). */
  run(task: () => Promise<void>): void {
    this.chain = this.chain.then(async () => {
      if (this.closed) return;
      try {
        await task();
      } catch (err) {
        if (!this.closed) console.warn('[events] stream ended after an error:', (err as Error).message);
        this.close();
      }
    });
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.onClose(this);
    this.finish();
  }
}

export function createEventHub(db: Db, notifications: Notifications | undefined, opts: HubOptions) {
  const byUser = new Map<string, Set<Stream>>();
  const unsubscribe: (() => Promise<void>)[] = [];
  let closed = false;

  const all = () => [...byUser.values()].flatMap((set) => [...set]);
  const listening = () => notifications?.isListening(EVENTS_CHANNEL) ?? false;

  async function headOf(userId: string): Promise<number> {
    const [row] = await db
      .select({ last: eventStreams.lastSeq })
      .from(eventStreams)
      .where(eq(eventStreams.userId, userId));
    return Number(row?.last ?? 0);
  }

  async function oldestKept(userId: string): Promise<number | null> {
    const [row] = await db
      .select({ seq: min(userEvents.seq) })
      .from(userEvents)
      .where(eq(userEvents.userId, userId));
    return row?.seq == null ? null : Number(row.seq);
  }

  const word = opts.word ?? ((_type: string, data: unknown) => data);
  const write = (s: Stream, seq: number, type: string, data: unknown) =>
    s.sink.send({ event: type, data: JSON.stringify(word(type, data)), id: String(seq) });

  /** Writes every stored event after the stream's last one, in order. */
  async function pump(s: Stream): Promise<void> {
    for (;;) {
      const rows = await db
        .select({ seq: userEvents.seq, type: userEvents.type, data: userEvents.data })
        .from(userEvents)
        .where(and(eq(userEvents.userId, s.userId), gt(userEvents.seq, s.last)))
        .orderBy(asc(userEvents.seq))
        .limit(PUMP_BATCH);
      for (const row of rows) {
        if (s.closed) return;
        const seq = Number(row.seq);
        if (seq !== s.last + 1) {
          // Swept before it could be sent (a stream silent for the whole retention): the client must reload.
          await s.sink.send({ event: 'reset', data: '{}', id: String(seq - 1) });
        }
        await write(s, seq, row.type, row.data);
        s.last = seq;
      }
      if (rows.length < PUMP_BATCH) return;
    }
  }

  /** The first task of every stream: `ready`, then the replay of a resume or `reset` when it cannot be done. */
  async function start(s: Stream, lastEventId: string | undefined): Promise<void> {
    const head = await headOf(s.userId);
    const wanted = lastEventId === undefined ? null : parseEventId(lastEventId);
    let resumed = false;
    if (wanted !== null && wanted <= head) {
      // Every event in (wanted, head] must still be kept: the oldest kept row is at most wanted + 1.
      const oldest = wanted === head ? null : await oldestKept(s.userId);
      resumed = wanted === head || (oldest !== null && oldest <= wanted + 1);
    }
    s.last = resumed ? wanted! : head;
    await s.sink.send({ event: 'ready', data: JSON.stringify({ resumed }), id: String(s.last), retry: RETRY_MS });
    if (lastEventId !== undefined && !resumed) await s.sink.send({ event: 'reset', data: '{}', id: String(head) });
    // What was missed, and anything committed since the head was read (its notification may have come already).
    await pump(s);
  }

  function onNotice(payload: string): void {
    for (const note of parseNotices(payload)) {
      for (const s of byUser.get(note.u) ?? []) {
        s.run(async () => {
          if (note.s <= s.last) return; // already written (by a pump)
          if (note.s === s.last + 1 && note.t !== undefined && note.d !== undefined) {
            await write(s, note.s, note.t, note.d);
            s.last = note.s;
          } else await pump(s);
        });
      }
    }
  }

  /** Closes the stream unless its session still signs in its user. */
  async function recheck(s: Stream): Promise<void> {
    if (!opts.session || !s.token || s.closed) return;
    try {
      if ((await opts.session.userOf(s.token)) !== s.userId) s.close();
    } catch (err) {
      console.warn('[events] could not re-check a session:', (err as Error).message);
    }
  }

  function onRevoked(payload: string): void {
    const [kind, subject] = [payload.slice(0, payload.indexOf(':')), payload.slice(payload.indexOf(':') + 1)];
    const hit =
      kind === 'token'
        ? all().filter((s) => s.tokenHash === subject)
        : kind === 'user'
          ? [...(byUser.get(subject) ?? [])]
          : [];
    // After the other handlers of this notification (the session cache evicts first), and off the listener.
    for (const s of hit) setImmediate(() => void recheck(s));
  }

  /**
   * Wakes every stream that is behind its user's head, one read per thousand users. A write's hint can be sent after
   * its commit (events/hints.ts, decision 047) and is lost if its instance died in between: the events it told of
   * arrive by the next heartbeat instead.
   */
  async function catchUp(): Promise<void> {
    const users = [...byUser.keys()];
    for (let i = 0; i < users.length; i += HEADS_BATCH) {
      const heads = await db
        .select({ userId: eventStreams.userId, last: eventStreams.lastSeq })
        .from(eventStreams)
        .where(inArray(eventStreams.userId, users.slice(i, i + HEADS_BATCH)));
      for (const head of heads)
        for (const s of byUser.get(head.userId) ?? [])
          if (s.last >= 0 && Number(head.last) > s.last) s.run(() => pump(s));
    }
  }

  function heartbeat(): void {
    const poll = !listening();
    for (const s of all()) {
      s.run(async () => {
        await s.sink.comment('heartbeat');
        // Without a LISTEN connection nothing wakes the stream: read what is new on every heartbeat instead.
        if (poll) await pump(s);
      });
      void recheck(s);
    }
    if (!poll)
      catchUp().catch((err: Error) => console.warn('[events] could not read the streams’ heads:', err.message));
  }

  if (notifications) {
    unsubscribe.push(
      notifications.listen(EVENTS_CHANNEL, onNotice, (up) => {
        // Notifications sent while the connection was down are lost: every stream reads what it missed.
        if (up) for (const s of all()) s.run(() => pump(s));
      }),
    );
    if (opts.session) unsubscribe.push(notifications.listen(opts.session.channel, onRevoked));
  }
  const beat = setInterval(heartbeat, opts.heartbeatMs);
  beat.unref();
  const sweeper = setInterval(
    () =>
      void sweepEvents(db, opts.retentionHours).catch((err: Error) =>
        console.warn('[events] sweeping old events failed:', err.message),
      ),
    opts.sweepEveryMs ?? HOUR_MS,
  );
  sweeper.unref();

  function remove(s: Stream): void {
    const set = byUser.get(s.userId);
    set?.delete(s);
    if (set && !set.size) byUser.delete(s.userId);
  }

  return {
    /** Opens a stream for `userId`. It is registered before the head is read, so no event can fall in between. */
    connect(input: ConnectInput): LiveConnection {
      const s = new Stream(input.userId, input.token, input.sink, opts.session?.hash, remove);
      if (closed) {
        s.close();
        return s;
      }
      let set = byUser.get(s.userId);
      if (!set) byUser.set(s.userId, (set = new Set()));
      set.add(s);
      s.run(() => start(s, input.lastEventId));
      return s;
    },
    /** Open streams on this instance (for tests and diagnostics). */
    get size(): number {
      return all().length;
    },
    /** Ends every stream and stops listening and the timers; the app calls it when it closes. */
    async close(): Promise<void> {
      closed = true;
      clearInterval(beat);
      clearInterval(sweeper);
      for (const s of all()) s.close();
      await Promise.allSettled(unsubscribe.map((u) => u()));
    },
  };
}

export type EventHub = ReturnType<typeof createEventHub>;

/** A non-negative whole number as an SSE id; anything else cannot be resumed from. */
function parseEventId(raw: string): number | null {
  if (!/^\d{1,15}$/.test(raw.trim())) return null;
  return Number(raw.trim());
}

/**
 * A notification's events: one flush's array of them (migration 0045), or one event (an older instance's flush, or a
 * flush too long for one payload). Anything that is not an event is skipped: it never invents one.
 */
function parseNotices(payload: string): Notice[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(payload);
  } catch {
    return [];
  }
  return (Array.isArray(parsed) ? parsed : [parsed]).flatMap((raw) => {
    const n = raw as Partial<Notice> | null;
    if (typeof n?.u !== 'string' || typeof n.s !== 'number' || !Number.isSafeInteger(n.s)) return [];
    return [{ u: n.u, s: n.s, t: typeof n.t === 'string' ? n.t : undefined, d: 'd' in n ? n.d : undefined }];
  });
}
