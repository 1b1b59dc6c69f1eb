import { sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { preparedStatement } from '../db/prepared';

/** One NOTIFY a database function handed back instead of sending it: [channel, payload] (migration 0046). */
export type Hint = readonly [channel: string, payload: string];

/**
 * The NOTIFYs of committed writes, sent after their commit (decision 047). A booking's move runs as
 * rr_booking_move_hinted, which keeps its NOTIFYs (the live events' hint, the job queue's wake-up) instead of sending
 * them, because a transaction that sends one takes the notify queue's one lock at commit and holds it until its commit
 * record is on disk: the writes that notified committed one at a time. The caller gives the answer to `send` once the
 * move has committed; the sender puts every hint queued meanwhile into one statement (rr_send_hints, which does not
 * wait for the disk), one statement at a time, so under load many moves share one.
 *
 * A hint is only a hint: the events are stored by the move. One that never goes out (this instance died first, or the
 * statement failed) delays its events until the stream's next heartbeat, which compares every stream with its user's
 * head (events/hub.ts), and a job until the worker's next poll.
 */
export interface HintSender {
  /** Queues the hints of a committed write (a JSON array of [channel, payload]; anything else is ignored). */
  send(hints: unknown): void;
  /** Resolves once everything queued so far was sent (or failed); the app awaits it before closing the database. */
  drain(): Promise<void>;
}

const sendStatement = preparedStatement(
  'send_hints',
  () => sql`select rr_send_hints(${sql.placeholder('hints')}::jsonb)`,
);

export function createHintSender(db: Db): HintSender {
  let queued: Hint[] = [];
  let sending: Promise<void> | null = null;

  async function sendAll(): Promise<void> {
    while (queued.length) {
      const batch = queued;
      queued = [];
      try {
        await sendStatement(db, { hints: JSON.stringify(batch) });
      } catch (err) {
        console.warn(
          `[events] ${batch.length} hint(s) not sent; streams catch up on their heartbeat:`,
          (err as Error).message,
        );
      }
    }
    sending = null;
  }

  return {
    send(hints) {
      if (!Array.isArray(hints)) return;
      for (const h of hints as unknown[]) if (isHint(h)) queued.push(h);
      if (queued.length && !sending) sending = sendAll();
    },
    drain: async () => {
      while (sending) await sending;
    },
  };
}

function isHint(h: unknown): h is Hint {
  return Array.isArray(h) && h.length === 2 && typeof h[0] === 'string' && typeof h[1] === 'string';
}
