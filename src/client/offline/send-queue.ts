import { onlineManager, type QueryClient } from '@tanstack/react-query';
import { createStore, get, update, type UseStore } from 'idb-keyval';
import type { SessionInfo } from '@shared/auth';
import { api, ApiError, newIdempotencyKey, QueuedError } from '../lib/api-client';
import { queryKeys } from '../lib/query-keys';
import { toastSuccess } from '../lib/toast';

/**
 * The changes made with no signal (docs/weak-signal.md, 'Writes on a weak signal'): a post, a delete, an offer, a
 * booking step or a message that could not reach the server is kept on the device, listed as 'Waiting to send (N)'
 * (each can be discarded), and sent in the order it was made once the signal returns, each with the
 * Idempotency-Key it was first tried with, so one that did reach the server is answered from its stored result
 * instead of happening twice. Sign-in, password, two-factor, account and other security steps are never queued:
 * they answer 'No connection. Please try again.'.
 */

/** A change as the send queue keeps it: plain data (and files), so it survives a reload in IndexedDB. */
export interface Change {
  /** What the 'Waiting to send' list says, e.g. 'Post ride: Springfield, IL → Decatur, IL'. */
  label: string;
  method: 'POST' | 'PATCH' | 'PUT' | 'DELETE';
  path: string;
  /** A JSON body, or `form` for a file upload (a FormData cannot be stored; its fields and files can). */
  body?: unknown;
  form?: [string, string | Blob][];
  /** The success toast once it is sent from the send queue (none for a message: it shows in the conversation). */
  sentToast?: { title: string; description?: string };
  /** The lists and details that reload once it is sent or refused. */
  refresh: (readonly unknown[])[];
}

export interface QueuedChange extends Change {
  /** Its Idempotency-Key, made when it was first tried. */
  key: string;
  /** Whose change it is: only that person's session shows and sends it. */
  userId: string;
  queuedAt: number;
}

/** Where the entries live; IndexedDB in the browser. `update` reads and writes in one step (tabs share it). */
export interface SendQueueStorage {
  read(): Promise<QueuedChange[] | undefined>;
  update(change: (entries: QueuedChange[]) => QueuedChange[]): Promise<QueuedChange[]>;
}

export function indexedDbSendQueue(): SendQueueStorage {
  let store: UseStore | undefined;
  // Its own database: the query snapshot's (query-persistence.ts) was created with one store only. Named as before
  // the queue was renamed (and its lock below too), so changes queued by an earlier version are still sent.
  const db = () => (store ??= createStore('ruralroute-outbox', 'outbox'));
  const KEY = 'entries';
  return {
    read: async () => get<QueuedChange[]>(KEY, db()),
    update: async (change) => {
      let next: QueuedChange[] = [];
      await update<QueuedChange[]>(KEY, (old) => (next = change(old ?? [])), db());
      return next;
    },
  };
}

/** Storage for a browser without IndexedDB (and tests): the entries last as long as the page. */
export function memorySendQueue(): SendQueueStorage {
  let entries: QueuedChange[] = [];
  return {
    read: async () => entries,
    update: async (change) => (entries = change(entries)),
  };
}

/**
 * When a waiting change is tried again while the device says it is online (a weak signal often does, and the
 * 'online' event can come before the line carries anything): soon at first, then every 20 seconds.
 */
export const SEND_RETRY_MS = [2_000, 5_000, 10_000, 20_000];

const sameChange = (a: Change, b: Change) =>
  a.method === b.method && a.path === b.path && JSON.stringify(a.body) === JSON.stringify(b.body) && !a.form;

/** The line failed (no connection, no answer in time): the change may be tried again later. */
const lineFailed = (err: unknown) =>
  err instanceof ApiError && (err.code === 'network_error' || err.code === 'timeout');
/** Not a refusal of the change itself: the session ended, a throttle or the server failing. Kept, tried later. */
const notNow = (err: unknown) =>
  lineFailed(err) ||
  (err instanceof ApiError && (err.status === 401 || err.status === 408 || err.status === 429 || err.status >= 500));

function bodyOf(change: Change): unknown {
  if (!change.form) return change.body;
  const form = new FormData();
  for (const [name, value] of change.form) form.append(name, value);
  return form;
}

export class SendQueue {
  private entries: QueuedChange[] = [];
  private listeners = new Set<() => void>();
  private flushing: Promise<void> | undefined;
  private retry: ReturnType<typeof setTimeout> | undefined;
  private retries = 0;
  /** The last send to each path still going (see `send`): the next one to that path waits for it. */
  private lanes = new Map<string, Promise<unknown>>();
  private stops: (() => void)[] = [];
  private client: QueryClient | undefined;
  /** Settles once the entries kept on the device are read (from start on). */
  private loaded: Promise<void> = Promise.resolve();

  constructor(
    private readonly storage: SendQueueStorage,
    private readonly now: () => number = Date.now,
  ) {}

  /** The signed-in person, if any. */
  private user(): string | null {
    return this.client?.getQueryData<SessionInfo>(queryKeys.session)?.user?.id ?? null;
  }

  private set(entries: QueuedChange[]) {
    this.entries = entries;
    this.listeners.forEach((l) => l());
  }

  private async write(change: (entries: QueuedChange[]) => QueuedChange[]) {
    // Applied here at once (the list on screen follows), then on the device: storage refused, it lasts the page.
    this.set(change(this.entries));
    try {
      this.set(await this.storage.update(change));
    } catch {
      // Kept in memory.
    }
  }

  subscribe = (listener: () => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  /** Every entry (a stable array between changes, for useSyncExternalStore); filter by person with `waiting`. */
  all = () => this.entries;

  /** The signed-in person's waiting changes, oldest first. */
  waiting(userId = this.user()): QueuedChange[] {
    return userId ? this.entries.filter((e) => e.userId === userId) : [];
  }

  /**
   * Sends a change now, or keeps it: with no signal, or when earlier changes of this person still wait (order is
   * kept), or when the line fails on the way (then with the key it was sent with). A kept change throws
   * QueuedError; a refusal throws as api() does. Changes to one path go one after another, in the order they were
   * made: twelve messages typed quickly reach the conversation in the order they were written, whichever instance
   * answers each, and a message that fails on the line is kept before the next one is tried.
   */
  send<T>(change: Change): Promise<T> {
    const userId = this.user();
    if (!userId) return api<T>(change.path, { method: change.method, body: bodyOf(change) });
    const previous = this.lanes.get(change.path);
    const sent = previous
      ? previous.then(() => this.sendInTurn<T>(change, userId))
      : this.sendInTurn<T>(change, userId);
    const settled = sent.catch(() => {});
    this.lanes.set(change.path, settled);
    void settled.then(() => {
      if (this.lanes.get(change.path) === settled) this.lanes.delete(change.path);
    });
    return sent;
  }

  private async sendInTurn<T>(change: Change, userId: string): Promise<T> {
    await this.loaded;
    if (this.waiting(userId).length > 0 && onlineManager.isOnline()) await this.flush();
    const earlier = this.waiting(userId);
    if (!onlineManager.isOnline() || earlier.length > 0) {
      // The same change already waiting is kept once, with its first key (keep).
      await this.keep(change, userId, newIdempotencyKey());
      throw new QueuedError();
    }
    const key = newIdempotencyKey();
    try {
      return await api<T>(change.path, { method: change.method, body: bodyOf(change), idempotencyKey: key });
    } catch (err) {
      if (!lineFailed(err)) throw err;
      await this.keep(change, userId, key);
      throw new QueuedError();
    }
  }

  /** Adds a change to the end (the same change made again, e.g. Delete pressed twice, is kept once). */
  private async keep(change: Change, userId: string, key: string) {
    const entry: QueuedChange = { ...change, key, userId, queuedAt: this.now() };
    await this.write((entries) =>
      entries.some((e) => e.key === key || (e.userId === userId && sameChange(e, change)))
        ? entries
        : [...entries, entry],
    );
    this.scheduleRetry();
  }

  /** The person gave up on a waiting change: it is not sent. */
  async discard(key: string) {
    await this.write((entries) => entries.filter((e) => e.key !== key));
  }

  /** Forgets one person's waiting changes (signed out), or everyone's. */
  async clear(userId?: string) {
    await this.write((entries) => (userId ? entries.filter((e) => e.userId !== userId) : []));
  }

  /**
   * Sends the signed-in person's waiting changes, oldest first, one at a time. Sent: its success toast, and what it
   * changed reloads. Refused (a 4xx: the request was taken meanwhile, the booking moved on): its usual error toast,
   * and it leaves the list. No signal, no answer, the session ended or the server failing: it stays, with the rest
   * behind it, for the next try. One tab sends at a time (Web Locks where the browser has them).
   */
  flush(): Promise<void> {
    this.flushing ??= this.withLock(() => this.sendWaiting()).finally(() => (this.flushing = undefined));
    return this.flushing;
  }

  private async withLock(run: () => Promise<void>) {
    const locks = typeof navigator !== 'undefined' ? navigator.locks : undefined;
    if (!locks) return run();
    await locks.request('ruralroute-outbox', run);
  }

  private async sendWaiting() {
    await this.loaded;
    // Another tab may have sent some meanwhile.
    try {
      this.set((await this.storage.read()) ?? []);
    } catch {
      // Keep what is in memory.
    }
    const userId = this.user();
    if (!userId) return;
    for (const entry of this.waiting(userId)) {
      if (!onlineManager.isOnline()) break;
      // Discarded while an earlier one was sending.
      if (!this.entries.some((e) => e.key === entry.key)) continue;
      try {
        await api<unknown>(entry.path, { method: entry.method, body: bodyOf(entry), idempotencyKey: entry.key });
        if (entry.sentToast) toastSuccess(entry.sentToast.title, entry.sentToast.description);
        this.retries = 0;
      } catch (err) {
        if (notNow(err)) {
          this.scheduleRetry();
          break;
        }
        // Its usual toast; the refusal texts load only now (not on /auth, which starts the send queue too).
        void import('../lib/mutation-errors').then((m) => m.toastMutationError(err));
      }
      // What it changed reloads before it leaves the list: a message stays on screen until the server's copy is.
      const client = this.client;
      if (client) await Promise.all(entry.refresh.map((queryKey) => client.invalidateQueries({ queryKey })));
      await this.write((entries) => entries.filter((e) => e.key !== entry.key));
    }
    if (this.waiting(userId).length === 0) this.stopRetry();
  }

  private scheduleRetry() {
    if (this.retry !== undefined) return;
    const delay = SEND_RETRY_MS[Math.min(this.retries, SEND_RETRY_MS.length - 1)]!;
    this.retries += 1;
    this.retry = setTimeout(() => {
      this.retry = undefined;
      if (onlineManager.isOnline()) void this.flush();
      else this.scheduleRetry();
    }, delay);
  }

  private stopRetry() {
    clearTimeout(this.retry);
    this.retry = undefined;
    this.retries = 0;
  }

  /**
   * Sends when the signal returns, when the page is shown again and when a person signs in; a different person
   * signing in removes the previous person's changes from the device. Answers a stop function.
   */
  start(client: QueryClient): () => void {
    this.client = client;
    this.loaded = this.storage.read().then(
      (entries) => this.set(entries ?? []),
      () => {
        // No IndexedDB: the entries last as long as the page.
      },
    );
    const onShown = () => {
      if (document.visibilityState === 'visible') void this.flush();
    };
    let owner = this.user();
    this.stops.push(
      onlineManager.subscribe((online) => {
        if (!online) return;
        // A fresh start: a failure now is tried again soon.
        this.stopRetry();
        void this.flush();
      }),
      client.getQueryCache().subscribe(() => {
        const session = client.getQueryData<SessionInfo>(queryKeys.session);
        if (session === undefined) return;
        const user = session.user?.id ?? null;
        if (user === owner) return;
        owner = user;
        if (user === null) return;
        void this.loaded.then(async () => {
          if (this.entries.some((e) => e.userId !== user))
            await this.write((es) => es.filter((e) => e.userId === user));
          if (this.waiting(user).length > 0) void this.flush();
        });
      }),
    );
    if (typeof document !== 'undefined') {
      document.addEventListener('visibilitychange', onShown);
      this.stops.push(() => document.removeEventListener('visibilitychange', onShown));
    }
    void this.loaded.then(() => {
      if (this.waiting().length > 0) {
        this.scheduleRetry();
        void this.flush();
      }
    });
    return () => {
      this.stops.forEach((stop) => stop());
      this.stops = [];
      this.stopRetry();
      this.client = undefined;
    };
  }
}

/** The app's sendQueue, on IndexedDB; started with the query cache (query-layout.tsx). */
export const sendQueue = new SendQueue(indexedDbSendQueue());
