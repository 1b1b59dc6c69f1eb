import { sql } from 'drizzle-orm';
import type { LiveEventData, OutboxEventName } from '../../shared/events';
import type { Db } from '../db/client';
import { preparedStatement } from '../db/prepared';

/** The one NOTIFY channel of live events (named in migration 0040's rr_outbox_flush too); its payload: `flushStatement`. */
export const EVENTS_CHANNEL = 'rr_events';

interface PendingEvent {
  userIds: readonly string[];
  type: OutboxEventName;
  data: unknown;
}

/**
 * The live events a transaction produces (docs/events.md), collected while it runs and written by `flush` as its
 * LAST statement. Writing them in one statement, in user-id order, is what keeps event streams deadlock-free and
 * ordered: each recipient's head row in event_streams is locked until commit, so one user's events are numbered in
 * commit order, and every transaction takes those locks after all its other locks, in the same order.
 */
export class Outbox {
  private readonly events: PendingEvent[] = [];

  add<N extends OutboxEventName>(userIds: readonly string[], type: N, data: LiveEventData<N>): this {
    const unique = [...new Set(userIds)];
    if (unique.length) this.events.push({ userIds: unique, type, data });
    return this;
  }

  get size(): number {
    return this.events.length;
  }

  /** Writes every collected event in `tx` (call it last, inside the transaction) and forgets them. */
  async flush(tx: Db): Promise<void> {
    if (!this.events.length) return;
    const rows = this.events.flatMap((e, order) =>
      e.userIds.map((u, k) => ({ u, t: e.type, d: e.data, i: order * 1000 + k })),
    );
    this.events.length = 0;
    await flushStatement(tx, { rows: JSON.stringify(rows) });
  }
}

/**
 * One statement: the database function `rr_outbox_flush` (migration 0040; the accept's function calls it too) bumps
 * each recipient's head by its number of events (new streams start at 1), numbers the events after the old head in
 * the order they were added, stores them, and NOTIFYs them on EVENTS_CHANNEL in one payload (migration 0045): the
 * array of `{"u": user, "s": seq, "t": type, "d": data}` (or only `{"u", "s"}` for an event whose data is over 7000
 * bytes: listeners then read it from user_events), or each event in a payload of its own when the array is over 7000
 * bytes (a NOTIFY payload holds at most 8000). Notifications are delivered after commit only.
 */
const flushStatement = preparedStatement(
  'outbox_flush',
  () => sql`select rr_outbox_flush(${sql.placeholder('rows')}::jsonb)`,
);
