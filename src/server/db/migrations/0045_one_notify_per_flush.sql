-- Issue 39 (the write path), decision 046: the event outbox sends one NOTIFY per flush instead of one per event. A
-- choose stores about seven live events (the chosen and the declined bookings to both their people, the notices) and
-- sent seven NOTIFYs: each a queue entry written under the notify queue's lock at commit, read again by every
-- listening backend and sent to its instance. Now the flush sends one payload, the JSON array of its events in
-- (user, seq) order, each {"u","s","t","d"} (or {"u","s"} when its data is over 7000 bytes, as before). An array over
-- 7000 bytes (a NOTIFY holds at most 8000) is sent event by event as before, so nothing is ever too long to send.
-- Listeners (src/server/events/hub.ts) take either form.
CREATE OR REPLACE FUNCTION "rr_outbox_flush"("rows" jsonb) RETURNS bigint LANGUAGE plpgsql AS $$
DECLARE
  sent bigint;
  batch text;
  one text;
BEGIN
  WITH ev AS (
    SELECT e.u, e.t, e.d, e.i FROM jsonb_to_recordset("rows") AS e(u uuid, t text, d jsonb, i int)
  ), counts AS (
    SELECT u, count(*)::bigint AS n FROM ev GROUP BY u
  ), heads AS (
    INSERT INTO event_streams AS s (user_id, last_seq)
    SELECT u, n FROM counts ORDER BY u
    ON CONFLICT (user_id) DO UPDATE SET last_seq = s.last_seq + excluded.last_seq
    RETURNING s.user_id, s.last_seq
  ), numbered AS (
    SELECT ev.u, ev.t, ev.d, h.last_seq - count(*) OVER w + row_number() OVER (w ORDER BY ev.i) AS seq
    FROM ev JOIN heads h ON h.user_id = ev.u
    WINDOW w AS (PARTITION BY ev.u)
  ), stored AS (
    INSERT INTO user_events (user_id, seq, type, data)
    SELECT u, seq, t, d FROM numbered
    RETURNING user_id, seq, type, data
  )
  SELECT count(*), '[' || string_agg(CASE
      WHEN octet_length(data::text) <= 7000
        THEN json_build_object('u', user_id, 's', seq, 't', type, 'd', data)::text
      ELSE json_build_object('u', user_id, 's', seq)::text END, ',' ORDER BY user_id, seq) || ']'
  INTO sent, batch
  FROM stored;
  IF sent = 0 THEN
    RETURN 0;
  END IF;
  IF octet_length(batch) <= 7000 THEN
    PERFORM pg_notify('rr_events', batch);
  ELSE
    FOR one IN SELECT value::text FROM json_array_elements(batch::json) LOOP
      PERFORM pg_notify('rr_events', one);
    END LOOP;
  END IF;
  RETURN sent;
END
$$;
