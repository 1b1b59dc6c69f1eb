-- Issue 39 (the write path), decision 047: a booking's move hands its NOTIFYs back instead of sending them. Every
-- transaction that sends a NOTIFY takes the notify queue's one lock at commit and holds it until its commit record is
-- flushed, so the writes that notified committed one at a time: behind the API, choose's backends waited on it 19% of
-- their time and complete's 30%. Now rr_booking_move_hinted runs the move with rr.defer_hints on: rr_hint keeps each
-- NOTIFY in the transaction's setting rr.hints instead of sending it, and the function answers them. The app sends them
-- once the move has committed (src/server/events/hints.ts), many moves' in one rr_send_hints, which does not wait for
-- its commit record to be flushed (nothing it writes needs to survive a crash: the events are stored by the move). A
-- hint lost between the two (the instance died) costs latency, never an event: every stream compares its position
-- with its user's head on each heartbeat (events/hub.ts). Every other caller still notifies in its transaction.

-- pg_notify, or, while the transaction defers its hints, the hint kept in rr.hints (a JSON array of [channel,
-- payload]) for the caller; the same hint twice in one transaction is kept once, as pg_notify sends it once.
CREATE FUNCTION "rr_hint"("p_channel" text, "p_payload" text) RETURNS boolean LANGUAGE plpgsql AS $$
DECLARE
  kept jsonb;
  one jsonb := jsonb_build_array(p_channel, p_payload);
BEGIN
  IF current_setting('rr.defer_hints', true) IS DISTINCT FROM 'on' THEN
    PERFORM pg_notify(p_channel, p_payload);
    RETURN true;
  END IF;
  kept := coalesce(nullif(current_setting('rr.hints', true), ''), '[]')::jsonb;
  IF NOT EXISTS (SELECT 1 FROM jsonb_array_elements(kept) h WHERE h = one) THEN
    PERFORM set_config('rr.hints', (kept || jsonb_build_array(one))::text, true);
  END IF;
  RETURN true;
END
$$;--> statement-breakpoint

-- Sends hints handed back by rr_booking_move_hinted, in order, in a transaction of its own (autocommit) that does not
-- wait for its commit record to reach the disk: it holds the notify queue's lock only as long as its commit takes.
CREATE FUNCTION "rr_send_hints"("p" jsonb) RETURNS int LANGUAGE plpgsql AS $$
DECLARE
  h jsonb;
  n int := 0;
BEGIN
  PERFORM set_config('synchronous_commit', 'off', true);
  FOR h IN SELECT value FROM jsonb_array_elements(p) LOOP
    PERFORM pg_notify(h ->> 0, h ->> 1);
    n := n + 1;
  END LOOP;
  RETURN n;
END
$$;--> statement-breakpoint

-- A booking's move (rr_booking_move, migration 0042) that answers its hints instead of sending them: the JSON array
-- of [channel, payload] to send once it has committed. Deferring ends with the move, so a later statement of the same
-- transaction notifies as usual.
CREATE FUNCTION "rr_booking_move_hinted"("p" jsonb) RETURNS jsonb LANGUAGE plpgsql AS $$
DECLARE
  hints jsonb;
BEGIN
  PERFORM set_config('rr.defer_hints', 'on', true), set_config('rr.hints', '[]', true);
  PERFORM rr_booking_move(p);
  hints := current_setting('rr.hints')::jsonb;
  PERFORM set_config('rr.defer_hints', 'off', true), set_config('rr.hints', '[]', true);
  RETURN hints;
END
$$;--> statement-breakpoint

-- The three functions that notified, as before but through rr_hint (0045's outbox flush, 0042's notify and release).
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
    PERFORM rr_hint('rr_events', batch);
  ELSE
    FOR one IN SELECT value::text FROM json_array_elements(batch::json) LOOP
      PERFORM rr_hint('rr_events', one);
    END LOOP;
  END IF;
  RETURN sent;
END
$$;--> statement-breakpoint

CREATE OR REPLACE FUNCTION "rr_notify"("p_input" jsonb, "p_security" text[], "p_mail_delay_seconds" int,
    "p_mail_bucket_seconds" int) RETURNS jsonb LANGUAGE plpgsql AS $$
DECLARE
  written jsonb;
BEGIN
  WITH input AS (
    SELECT x.* FROM jsonb_to_recordset(p_input)
      AS x(user_id uuid, type text, actor_id uuid, booking_id uuid, request_id uuid, data jsonb, group_key text)
  ), resolved AS (
    -- Lateral lookups, one index probe each (LIMIT 1 keeps each from being pulled up into a join): the planner
    -- guesses 100 rows for jsonb_to_recordset and would otherwise hash-join whole tables.
    SELECT i.user_id, i.type, i.group_key,
      jsonb_strip_nulls(jsonb_build_object(
        'actor_name', p.full_name,
        'title', r.title,
        'booking_id', i.booking_id,
        'request_id', coalesce(i.request_id, b.request_id)
      )) || coalesce(i.data, '{}'::jsonb) AS data
    FROM input i
    LEFT JOIN LATERAL (SELECT b.request_id FROM bookings b WHERE b.id = i.booking_id LIMIT 1) b ON true
    LEFT JOIN LATERAL (
      SELECT r.id, r.title FROM delivery_requests r WHERE r.id = coalesce(i.request_id, b.request_id) LIMIT 1
    ) r ON true
    LEFT JOIN LATERAL (SELECT p.full_name FROM profiles p WHERE p.user_id = i.actor_id LIMIT 1) p ON true
    WHERE (SELECT u.deleted_at FROM users u WHERE u.id = i.user_id) IS NULL
  ), ins AS (
    INSERT INTO notifications AS n (user_id, type, data, group_key)
    SELECT user_id, type, data, group_key FROM resolved
    ON CONFLICT (user_id, group_key) WHERE read_at IS NULL DO UPDATE
      SET data = excluded.data || jsonb_build_object('count', coalesce((n.data ->> 'count')::int, 1) + 1),
          created_at = now()
    RETURNING n.id, n.user_id, n.type, n.data, n.group_key, n.created_at, n.read_at, n.emailed_at
  ), mail AS (
    INSERT INTO jobs (kind, payload, run_at, dedupe_key)
    SELECT 'notification-email', jsonb_build_object('notification_id', ins.id),
      CASE WHEN ins.group_key IS NULL THEN now() ELSE now() + make_interval(secs => p_mail_delay_seconds) END,
      CASE WHEN ins.group_key IS NULL THEN NULL
        -- A saved search's matches: one job per notification per mail sent, so a match after a mail waits (deferred
        -- by the job) for the interval's end and goes out then, bundled with what came meanwhile.
        WHEN ins.type = 'search_match' THEN 'notification-email:' || ins.id || ':'
          || coalesce((extract(epoch FROM ins.emailed_at) * 1000)::bigint::text, 'new')
        ELSE 'notification-email:' || ins.id || ':' || floor(extract(epoch FROM now()) / p_mail_bucket_seconds)::bigint
      END
    FROM ins
    WHERE ins.type = ANY (p_security) OR NOT EXISTS (
      SELECT 1 FROM notification_preferences np WHERE np.user_id = ins.user_id AND ins.type = ANY (np.email_off))
    ON CONFLICT (dedupe_key) DO NOTHING
    -- Run whatever the query reads (a data-modifying WITH always runs to completion).
    RETURNING rr_hint('rr_jobs', '') AS woke
  )
  SELECT coalesce(jsonb_agg(jsonb_build_object('id', ins.id, 'user_id', ins.user_id, 'type', ins.type,
      'data', ins.data, 'created_at', ins.created_at, 'read_at', ins.read_at)), '[]'::jsonb)
  INTO written
  FROM ins;
  RETURN written;
END
$$;--> statement-breakpoint

CREATE OR REPLACE FUNCTION "rr_payment_release"("p_booking" uuid, "p_payment" uuid, "p_ledger" jsonb) RETURNS boolean
LANGUAGE plpgsql AS $$
DECLARE
  pay record;
BEGIN
  UPDATE payments SET state = 'released', settled_at = clock_timestamp()
  WHERE booking_id = p_booking AND state = 'held'
  RETURNING id, driver_id INTO pay;
  IF NOT FOUND THEN
    RETURN false;
  END IF;
  IF p_payment IS DISTINCT FROM pay.id THEN
    RAISE EXCEPTION USING ERRCODE = 'RR409', MESSAGE = 'booking_state_changed';
  END IF;
  PERFORM rr_ledger_post(p_ledger);
  IF EXISTS (SELECT 1 FROM payout_accounts pa WHERE pa.user_id = pay.driver_id AND pa.status = 'active') THEN
    INSERT INTO jobs (kind, payload) VALUES ('payout_run', jsonb_build_object('userId', pay.driver_id));
    PERFORM rr_hint('rr_jobs', '');
  END IF;
  RETURN true;
END
$$;
