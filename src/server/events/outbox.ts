import { sql } from 'drizzle-orm';
import type { LiveEventData, OutboxEventName } from '../../shared/events';
import type { Db } from '../db/client';
import { preparedStatement } from '../db/prepared';

/** The one NOTIFY channel of live events; its payload is described at `flushOutbox`. */
export const EVENTS_CHANNEL = 'rr_events';

/** A NOTIFY payload holds at most 8000 bytes: larger events are announced without their data. */
const INLINE_DATA_MAX_BYTES = 7000;

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
 * One statement: bump each recipient's head by its number of events (new streams start at 1), number the events
 * after the old head in the order they were added, store them, and NOTIFY each one on EVENTS_CHANNEL with payload
 * `{"u": user, "s": seq, "t": type, "d": data}` (or only `{"u", "s"}` when the data is too large for a
 * notification; listeners then read it from user_events). Notifications are delivered after commit only.
 */
const flushStatement = preparedStatement(
  'outbox_flush',
  () => sql`
    with ev as (
      select e.u, e.t, e.d, e.i from jsonb_to_recordset(${sql.placeholder('rows')}::jsonb) as e(u uuid, t text, d jsonb, i int)
    ), counts as (
      select u, count(*)::bigint as n from ev group by u
    ), heads as (
      insert into event_streams as s (user_id, last_seq)
      select u, n from counts order by u
      on conflict (user_id) do update set last_seq = s.last_seq + excluded.last_seq
      returning s.user_id, s.last_seq
    ), numbered as (
      select ev.u, ev.t, ev.d, h.last_seq - count(*) over w + row_number() over (w order by ev.i) as seq
      from ev join heads h on h.user_id = ev.u
      window w as (partition by ev.u)
    ), stored as (
      insert into user_events (user_id, seq, type, data)
      select u, seq, t, d from numbered
      returning user_id, seq, type, data
    )
    select count(pg_notify(${EVENTS_CHANNEL}, case
      when octet_length(data::text) <= ${INLINE_DATA_MAX_BYTES}
        then json_build_object('u', user_id, 's', seq, 't', type, 'd', data)::text
      else json_build_object('u', user_id, 's', seq)::text end))
    from stored`,
);
