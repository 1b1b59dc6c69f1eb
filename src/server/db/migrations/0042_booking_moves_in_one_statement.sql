-- Issue 39 (the write path): choosing a driver (with the payment's hold), completing a delivery (code or 'Mark as
-- received', with the release and Community's reward) and the other moves of a booking except cancel, each in one
-- statement in autocommit, instead of ten to fourteen round trips (decision 038). What TypeScript decides before the
-- move (the delivery code, the ledger's lines and shards, the notices' words and data, the settings) comes in as the
-- argument; the function does the writes in the order the old transaction did them, each statement with a fresh
-- snapshot (PL/pgSQL in READ COMMITTED), so the guarded updates still settle who moved first. A refusal raises
-- SQLSTATE RR409 with the refusal's code as its message: the whole statement, and so every write, is rolled back.
--
-- rr_ledger_post is the ledger's posting (src/server/payments/ledger.ts `post` calls it, so there is one copy):
-- the transaction under its idempotency key (none written when the key was posted before: returns false), the
-- accounts it opens, and the entries in account-id order (the entry trigger locks each account as it applies its
-- entry, so two moves lock accounts in the same order). An account another transaction was opening at that moment
-- is not visible to the first statement: the second adds its entry once that one has committed.
-- Its argument: {kind, key, payment_id, booking_id, lines: [{key, kind, user_id, payment_id, allow_negative, amount}]}.
CREATE FUNCTION "rr_ledger_post"("p" jsonb) RETURNS boolean LANGUAGE plpgsql AS $$
DECLARE
  tx_id bigint;
  n_entries int;
BEGIN
  WITH t AS (
    INSERT INTO ledger_transactions (kind, idempotency_key, payment_id, booking_id)
    VALUES (p ->> 'kind', p ->> 'key', (p ->> 'payment_id')::uuid, (p ->> 'booking_id')::uuid)
    ON CONFLICT (idempotency_key) DO NOTHING
    RETURNING id
  ), lines AS (
    SELECT * FROM jsonb_to_recordset(p -> 'lines')
      AS l(key text, kind text, user_id uuid, payment_id uuid, allow_negative boolean, amount bigint)
  ), existing AS (
    -- One index probe per line: the planner guesses 100 rows for jsonb_to_recordset and would otherwise hash-join
    -- the whole accounts table (auto_explain: 60 ms a posting under load). LIMIT 1 (the key is unique) keeps the
    -- subquery from being pulled up into that join.
    SELECT a.id, a.key FROM lines CROSS JOIN LATERAL (
      SELECT la.id, la.key FROM ledger_accounts la WHERE la.key = lines.key LIMIT 1) a
  ), opened AS (
    INSERT INTO ledger_accounts (key, kind, user_id, payment_id, allow_negative)
    SELECT lines.key, lines.kind, lines.user_id, lines.payment_id, lines.allow_negative
    FROM lines
    WHERE EXISTS (SELECT 1 FROM t) AND NOT EXISTS (SELECT 1 FROM existing e WHERE e.key = lines.key)
    ON CONFLICT (key) DO NOTHING
    RETURNING id, key
  ), accounts AS (
    SELECT id, key FROM existing UNION ALL SELECT id, key FROM opened
  ), ins AS (
    INSERT INTO ledger_entries (transaction_id, account_id, amount)
    SELECT t.id, a.id, lines.amount
    FROM t, lines JOIN accounts a ON a.key = lines.key
    ORDER BY a.id
    RETURNING 1
  )
  SELECT (SELECT id FROM t), (SELECT count(*) FROM ins)::int INTO tx_id, n_entries;
  IF tx_id IS NULL THEN
    RETURN false;
  END IF;
  IF n_entries < jsonb_array_length(p -> 'lines') THEN
    INSERT INTO ledger_entries (transaction_id, account_id, amount)
    SELECT tx_id, a.id, l.amount
    FROM jsonb_to_recordset(p -> 'lines')
      AS l(key text, kind text, user_id uuid, payment_id uuid, allow_negative boolean, amount bigint)
    CROSS JOIN LATERAL (SELECT la.id FROM ledger_accounts la WHERE la.key = l.key LIMIT 1) a
    WHERE NOT EXISTS (SELECT 1 FROM ledger_entries e WHERE e.transaction_id = tx_id AND e.account_id = a.id)
    ORDER BY a.id;
  END IF;
  RETURN true;
END
$$;--> statement-breakpoint

-- notify()'s one statement (src/server/notifications/write.ts calls it, so there is one copy): the notifications
-- (grouped ones folded into the unread one of their group), their e-mail jobs unless the person switched that type's
-- e-mail off (security types always), and the rows written, as a JSON array [{id, user_id, type, data, created_at,
-- read_at}] for the caller's live events. Items for a deleted account are dropped.
-- Its input: [{user_id, type, actor_id, booking_id, request_id, data, group_key}].
CREATE FUNCTION "rr_notify"("p_input" jsonb, "p_security" text[], "p_mail_delay_seconds" int,
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
    RETURNING pg_notify('rr_jobs', '') AS woke
  )
  SELECT coalesce(jsonb_agg(jsonb_build_object('id', ins.id, 'user_id', ins.user_id, 'type', ins.type,
      'data', ins.data, 'created_at', ins.created_at, 'read_at', ins.read_at)), '[]'::jsonb)
  INTO written
  FROM ins;
  RETURN written;
END
$$;--> statement-breakpoint

-- The release of a booking's held payment (choose's hold undone the other way): 'released', the ledger's posting as
-- TypeScript computed it for that payment (the driver's share, the fee and the guarantee's reserve), and a payout run
-- when the driver's payouts are active (the 'payout_run' job, payments/payouts.ts). False when nothing is held. A
-- held payment other than the one the posting was computed for refuses the move (booking_state_changed).
CREATE FUNCTION "rr_payment_release"("p_booking" uuid, "p_payment" uuid, "p_ledger" jsonb) RETURNS boolean
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
    PERFORM pg_notify('rr_jobs', '');
  END IF;
  RETURN true;
END
$$;--> statement-breakpoint

-- One move of a booking (src/server/bookings/transitions.ts builds its argument from the lifecycle's table):
--   request: the request's guarded move first (it locks the request, as accept's FOR SHARE waits on it);
--   the booking's guarded move (from its status; once for a pickup; nothing holding it when leaving 'confirmed') with
--   its timeline event; the delivery code issued on choose ('code') and gone on leaving 'confirmed';
--   declines: every other pending offer of the request declined by the system, each with its event and notice;
--   hold: the pending payment held with its ledger posting (choose of a paid request);
--   release: the held payment released (complete, receive);
--   reward: a Community driver's milestone reward on completion ({plan, milestones, ledger, notice});
--   the notices (rr_notify with 'notify' = {security, delay, bucket}), then the live events, last.
-- Refusals (RR409): booking_state_changed, dispute_on_hold, chargeback_on_hold, payment_voided.
CREATE FUNCTION "rr_booking_move"("p" jsonb) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  bk uuid := (p ->> 'booking')::uuid;
  req uuid := (p ->> 'request')::uuid;
  driver uuid := (p ->> 'driver')::uuid;
  requester uuid := (p ->> 'requester')::uuid;
  picked boolean := coalesce((p ->> 'picked_up')::boolean, false);
  final boolean := coalesce((p ->> 'final')::boolean, false);
  guard_hold boolean := coalesce((p ->> 'guard_hold')::boolean, false);
  held record;
  declined jsonb;
  d jsonb;
  notices jsonb := jsonb_build_array(p -> 'notice');
  events jsonb := '[]'::jsonb;
  written jsonb;
  note jsonb;
  pay_id uuid;
  n int;
  reward_ledger jsonb;
BEGIN
  IF p ->> 'request_from' IS NOT NULL THEN
    UPDATE delivery_requests SET status = p ->> 'request_to'
    WHERE id = req AND status = p ->> 'request_from';
    IF NOT FOUND THEN
      RAISE EXCEPTION USING ERRCODE = 'RR409', MESSAGE = 'booking_state_changed';
    END IF;
  END IF;

  WITH changed AS (
    UPDATE bookings SET
      status = p ->> 'to',
      delivery_code = CASE WHEN p ->> 'to' <> 'confirmed' THEN NULL
        WHEN p ? 'code' THEN p ->> 'code' ELSE delivery_code END,
      picked_up_at = CASE WHEN picked THEN clock_timestamp() ELSE picked_up_at END,
      ended_at = CASE WHEN final THEN clock_timestamp() ELSE ended_at END
    WHERE id = bk AND status = p ->> 'from'
      AND (NOT picked OR picked_up_at IS NULL)
      AND (NOT guard_hold OR (on_hold_dispute_id IS NULL AND on_hold_chargeback_id IS NULL))
    RETURNING id
  ), ev AS (
    INSERT INTO booking_events (booking_id, driver_id, requester_id, actor_id, type, from_status, to_status, reason,
      details)
    SELECT id, driver, requester, (p ->> 'actor')::uuid, p ->> 'event', p ->> 'from', p ->> 'to', p ->> 'reason',
      p ->> 'details'
    FROM changed
  )
  SELECT id INTO held FROM changed;
  IF NOT FOUND THEN
    -- Someone moved it first, or a dispute reported meanwhile holds it: the row lock decided which came first.
    SELECT on_hold_dispute_id, on_hold_chargeback_id INTO held FROM bookings WHERE id = bk;
    RAISE EXCEPTION USING ERRCODE = 'RR409', MESSAGE = CASE
      WHEN held.on_hold_dispute_id IS NOT NULL THEN 'dispute_on_hold'
      WHEN held.on_hold_chargeback_id IS NOT NULL THEN 'chargeback_on_hold'
      ELSE 'booking_state_changed' END;
  END IF;
  events := events
    || jsonb_build_object('u', driver, 't', 'booking.changed', 'd', jsonb_build_object('booking_id', bk,
      'request_id', req, 'status', p ->> 'to', 'event_type', p ->> 'event'))
    || jsonb_build_object('u', requester, 't', 'booking.changed', 'd', jsonb_build_object('booking_id', bk,
      'request_id', req, 'status', p ->> 'to', 'event_type', p ->> 'event'));

  IF p -> 'declines' IS NOT NULL AND jsonb_typeof(p -> 'declines') = 'object' THEN
    d := p -> 'declines';
    WITH gone AS (
      UPDATE bookings SET status = d ->> 'to', ended_at = clock_timestamp()
      WHERE request_id = req AND id <> bk AND status = d ->> 'from'
      RETURNING id, driver_id, requester_id
    ), ev AS (
      INSERT INTO booking_events (booking_id, driver_id, requester_id, actor_id, type, from_status, to_status)
      SELECT id, driver_id, requester_id, NULL, d ->> 'cause', d ->> 'from', d ->> 'to' FROM gone
    )
    SELECT coalesce(jsonb_agg(jsonb_build_object('id', id, 'driver_id', driver_id, 'requester_id', requester_id)),
      '[]'::jsonb) INTO declined
    FROM gone;
    FOR note IN SELECT * FROM jsonb_array_elements(declined) LOOP
      events := events
        || jsonb_build_object('u', note -> 'driver_id', 't', 'booking.changed', 'd', jsonb_build_object(
          'booking_id', note -> 'id', 'request_id', req, 'status', d ->> 'to', 'event_type', d ->> 'cause'))
        || jsonb_build_object('u', note -> 'requester_id', 't', 'booking.changed', 'd', jsonb_build_object(
          'booking_id', note -> 'id', 'request_id', req, 'status', d ->> 'to', 'event_type', d ->> 'cause'));
      notices := notices || jsonb_build_object('user_id', note -> 'driver_id', 'type', 'offer_declined',
        'actor_id', NULL, 'booking_id', note -> 'id', 'data', jsonb_build_object('cause', d ->> 'cause'));
    END LOOP;
  END IF;

  IF jsonb_typeof(p -> 'hold') = 'object' THEN
    UPDATE payments SET state = 'held', provider_charge_id = p -> 'hold' ->> 'charge_id',
      card_brand = p -> 'hold' ->> 'card_brand', card_last4 = p -> 'hold' ->> 'card_last4',
      held_at = clock_timestamp()
    WHERE id = (p -> 'hold' ->> 'payment_id')::uuid AND state = 'pending'
    RETURNING id INTO pay_id;
    -- Reconciliation voided it meanwhile (a choose that took longer than a pending payment may live).
    IF NOT FOUND THEN
      RAISE EXCEPTION USING ERRCODE = 'RR409', MESSAGE = 'payment_voided';
    END IF;
    PERFORM rr_ledger_post(p -> 'hold' -> 'ledger');
    notices := notices || (p -> 'hold' -> 'notice');
  END IF;

  IF jsonb_typeof(p -> 'release') = 'object' OR p ->> 'to' = 'completed' THEN
    IF rr_payment_release(bk, (p -> 'release' ->> 'payment_id')::uuid, p -> 'release' -> 'ledger') THEN
      notices := notices || (p -> 'release' -> 'notice');
    END IF;
  END IF;

  IF jsonb_typeof(p -> 'reward') = 'object' THEN
    PERFORM 1 FROM profiles WHERE user_id = driver AND plan = p -> 'reward' ->> 'plan' FOR UPDATE;
    IF FOUND THEN
      SELECT count(*) INTO n FROM bookings WHERE driver_id = driver AND status = 'completed';
      IF n IN (SELECT m::int FROM jsonb_array_elements_text(p -> 'reward' -> 'milestones') m) THEN
        reward_ledger := jsonb_set(p -> 'reward' -> 'ledger', '{key}', to_jsonb((p -> 'reward' -> 'ledger' ->> 'key') || n));
        IF rr_ledger_post(reward_ledger) THEN
          notices := notices || jsonb_set(p -> 'reward' -> 'notice', '{data,count}', to_jsonb(n));
        END IF;
      END IF;
    END IF;
  END IF;

  written := rr_notify(notices, ARRAY(SELECT jsonb_array_elements_text(p -> 'notify' -> 'security')),
    (p -> 'notify' ->> 'delay')::int, (p -> 'notify' ->> 'bucket')::int);
  FOR note IN SELECT * FROM jsonb_array_elements(written) LOOP
    events := events || jsonb_build_object('u', note -> 'user_id', 't', 'notification.created',
      'd', jsonb_build_object('row', note - 'user_id'));
  END LOOP;
  -- Last: the outbox takes its locks after every other lock of the transaction (events/outbox.ts).
  PERFORM rr_outbox_flush((SELECT jsonb_agg(e || jsonb_build_object('i', o - 1) ORDER BY o)
    FROM jsonb_array_elements(events) WITH ORDINALITY AS x(e, o)));
END
$$;
