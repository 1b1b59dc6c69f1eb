-- Issue 39 (the write path): a driver's offer (POST /bookings) in one statement, in autocommit, instead of nine round
-- trips (BEGIN, the request read with its share locks, the block check, the booking and its event, the notification
-- and its e-mail job, the outbox, COMMIT). Every write and every guarantee of the old path stays: the function's
-- statements run in order in one transaction, each with a fresh snapshot (PL/pgSQL in READ COMMITTED), so a block or
-- a suspension committed while the share locks waited is seen, as before; the partial unique (request, driver) index
-- still settles a driver offering twice (the caller maps the unique violation to 'already_accepted').
--
-- rr_outbox_flush is the event outbox's one statement (src/server/events/outbox.ts calls it too, so there is one copy):
-- bump each recipient's head in user-id order, number and store the events, NOTIFY each on 'rr_events' (payload
-- {"u","s","t","d"}, or {"u","s"} when the data is over 7000 bytes). Its argument: [{u, t, d, i}] with i the order.
CREATE FUNCTION "rr_outbox_flush"("rows" jsonb) RETURNS bigint LANGUAGE plpgsql AS $$
DECLARE
  sent bigint;
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
  SELECT count(pg_notify('rr_events', CASE
    WHEN octet_length(data::text) <= 7000
      THEN json_build_object('u', user_id, 's', seq, 't', type, 'd', data)::text
    ELSE json_build_object('u', user_id, 's', seq)::text END))
  INTO sent
  FROM stored;
  RETURN sent;
END
$$;--> statement-breakpoint

-- A driver's offer on a request. Returns {"refused": code} (nothing written) or the booking as the API answers it,
-- with the request's fields. The notification ('offer_received', with its e-mail job unless the requester switched
-- that e-mail off) is the one notify() writes (src/server/notifications/write.ts); its live event carries the stored
-- row ({"row": ...}) and the event hub words it when it sends it (src/server/events/hub.ts), as the API words
-- every notification it returns.
CREATE FUNCTION "rr_accept_offer"("p_request" uuid, "p_driver" uuid) RETURNS jsonb LANGUAGE plpgsql AS $$
DECLARE
  req record;
  bk record;
  note record;
  note_data jsonb;
  events jsonb;
BEGIN
  -- The requester's users row too: a block (moderation) and a suspension lock it for update, so either commits before
  -- this reads it, or waits for this offer and then declines it / hides the request.
  SELECT r.user_id, r.status, r.title, r.pickup_location, r.delivery_location, p.full_name AS requester_name,
    u.suspended_at, u.deleted_at,
    (SELECT dp.full_name FROM profiles dp WHERE dp.user_id = p_driver) AS driver_name
  INTO req
  FROM delivery_requests r
  JOIN profiles p ON p.user_id = r.user_id
  JOIN users u ON u.id = r.user_id
  WHERE r.id = p_request
  FOR SHARE OF r, u;
  -- A suspended requester's requests have left Browse: to a driver they are simply no longer available.
  IF NOT FOUND OR req.status <> 'open' OR req.suspended_at IS NOT NULL THEN
    RETURN jsonb_build_object('refused', 'request_unavailable');
  END IF;
  IF req.user_id = p_driver THEN
    RETURN jsonb_build_object('refused', 'own_request');
  END IF;
  -- After the lock, so a block committed while this waited is seen (each statement reads afresh).
  IF EXISTS (SELECT 1 FROM blocks WHERE (blocker_id = p_driver AND blocked_id = req.user_id)
      OR (blocker_id = req.user_id AND blocked_id = p_driver)) THEN
    RETURN jsonb_build_object('refused', 'blocked');
  END IF;

  INSERT INTO bookings (request_id, driver_id, requester_id, status)
  VALUES (p_request, p_driver, req.user_id, 'pending')
  RETURNING id, status, created_at INTO bk;
  INSERT INTO booking_events (booking_id, driver_id, requester_id, actor_id, type, from_status, to_status)
  VALUES (bk.id, p_driver, req.user_id, p_driver, 'offered', NULL, 'pending');

  events := '[]'::jsonb;
  -- A deleted account is told nothing more.
  IF req.deleted_at IS NULL THEN
    note_data := jsonb_strip_nulls(jsonb_build_object(
      'actor_name', req.driver_name, 'title', req.title, 'booking_id', bk.id, 'request_id', p_request));
    INSERT INTO notifications (user_id, type, data)
    VALUES (req.user_id, 'offer_received', note_data)
    RETURNING id, type, data, created_at, read_at INTO note;
    IF NOT EXISTS (SELECT 1 FROM notification_preferences np
        WHERE np.user_id = req.user_id AND 'offer_received' = ANY (np.email_off)) THEN
      INSERT INTO jobs (kind, payload, run_at) VALUES ('notification-email', jsonb_build_object('notification_id', note.id), now());
      PERFORM pg_notify('rr_jobs', '');
    END IF;
    events := jsonb_build_array(jsonb_build_object('u', req.user_id, 't', 'notification.created', 'i', 0,
      'd', jsonb_build_object('row', jsonb_build_object('id', note.id, 'type', note.type, 'data', note.data,
        'created_at', note.created_at, 'read_at', note.read_at))));
  END IF;
  -- Last, as every transaction writes its live events: the driver's other tabs and the requester hear of the offer.
  events := events
    || jsonb_build_object('u', p_driver, 't', 'booking.changed', 'i', 1000, 'd', jsonb_build_object(
      'booking_id', bk.id, 'request_id', p_request, 'status', 'pending', 'event_type', 'offered'))
    || jsonb_build_object('u', req.user_id, 't', 'booking.changed', 'i', 1001, 'd', jsonb_build_object(
      'booking_id', bk.id, 'request_id', p_request, 'status', 'pending', 'event_type', 'offered'));
  PERFORM rr_outbox_flush(events);

  RETURN jsonb_build_object('id', bk.id, 'status', bk.status, 'created_at', bk.created_at,
    'driver_name', req.driver_name, 'title', req.title, 'pickup_location', req.pickup_location,
    'delivery_location', req.delivery_location, 'requester_name', req.requester_name);
END
$$;
