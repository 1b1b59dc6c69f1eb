-- Issue 39 (the write path), decision 037: sending a message (POST /bookings/:id/messages) in one statement, in
-- autocommit, instead of ten round trips. The same moves, in the same order, as src/server/messages/service.ts did
-- statement by statement: the booking locked first (sends to one conversation queue here, so a retry racing its
-- original finds it, and created_at follows the order in which messages are stored), a repeated client_id answered
-- from the stored message, the conversation's end and blocks checked, the message, the booking's last message,
-- activity and my read mark, my unread notification of the conversation read, the other person's notification
-- (grouped per conversation while unread, its e-mail job delayed and keyed to one per interval, as notify() does),
-- and the live events last (rr_outbox_flush). The settings that live in TypeScript come as arguments:
-- p_open_hours (a conversation stays open this long after the booking ended), p_mail_delay_seconds and
-- p_mail_bucket_seconds (src/shared/notifications.ts).
--
-- Answers {"refused": "not_found" | "closed" | "blocked"} with nothing written, {"prior": message} for a client_id
-- already used by this sender (the caller decides between the replay and 422), or {"message": message} for a new one;
-- a message as the API shows it, its created_at printed as Date#toISOString prints it.
CREATE FUNCTION "rr_send_message"("p_booking" uuid, "p_sender" uuid, "p_client_id" uuid, "p_body" text,
  "p_open_hours" int, "p_mail_delay_seconds" int, "p_mail_bucket_seconds" int) RETURNS jsonb LANGUAGE plpgsql AS $$
DECLARE
  conv record;
  msg record;
  note record;
  other uuid;
  as_driver boolean;
  my_read timestamptz;
  read_ids jsonb;
  events jsonb;
  message jsonb;
  woke boolean;
BEGIN
  SELECT b.id, b.driver_id, b.requester_id, b.request_id, b.last_message_at, b.driver_read_at, b.requester_read_at,
    (b.ended_at IS NOT NULL AND b.ended_at + make_interval(hours => p_open_hours) <= now()) AS is_closed
  INTO conv
  FROM bookings b
  WHERE b.id = p_booking AND (b.driver_id = p_sender OR b.requester_id = p_sender)
  FOR UPDATE;
  IF NOT FOUND THEN
    RETURN jsonb_build_object('refused', 'not_found');
  END IF;

  SELECT m.id, m.booking_id, m.sender_id, m.client_id, m.body, m.created_at INTO msg
  FROM messages m WHERE m.sender_id = p_sender AND m.client_id = p_client_id;
  IF NOT FOUND THEN
    IF conv.is_closed THEN
      RETURN jsonb_build_object('refused', 'closed');
    END IF;
    as_driver := conv.driver_id = p_sender;
    other := CASE WHEN as_driver THEN conv.requester_id ELSE conv.driver_id END;
    IF EXISTS (SELECT 1 FROM blocks WHERE (blocker_id = p_sender AND blocked_id = other)
        OR (blocker_id = other AND blocked_id = p_sender)) THEN
      RETURN jsonb_build_object('refused', 'blocked');
    END IF;
    INSERT INTO messages (booking_id, sender_id, client_id, body)
    VALUES (p_booking, p_sender, p_client_id, p_body)
    ON CONFLICT (sender_id, client_id) DO NOTHING
    RETURNING id, booking_id, sender_id, client_id, body, created_at INTO msg;
    IF NOT FOUND THEN
      -- The same client_id sent to another conversation at the same moment, and that one won.
      SELECT m.id, m.booking_id, m.sender_id, m.client_id, m.body, m.created_at INTO msg
      FROM messages m WHERE m.sender_id = p_sender AND m.client_id = p_client_id;
      IF NOT FOUND THEN
        RAISE EXCEPTION 'message insert conflicted but no message was found';
      END IF;
    ELSE
      message := jsonb_build_object('id', msg.id, 'booking_id', msg.booking_id, 'sender_id', msg.sender_id,
        'client_id', msg.client_id, 'body', msg.body,
        'created_at', to_char(msg.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'));
      UPDATE bookings SET
        last_message_at = greatest(last_message_at, msg.created_at),
        activity_at = greatest(activity_at, msg.created_at),
        driver_read_at = CASE WHEN as_driver THEN greatest(driver_read_at, msg.created_at) ELSE driver_read_at END,
        requester_read_at = CASE WHEN as_driver THEN requester_read_at ELSE greatest(requester_read_at, msg.created_at) END
      WHERE id = p_booking;

      events := jsonb_build_array(
        jsonb_build_object('u', conv.driver_id, 't', 'message.created', 'i', 0,
          'd', jsonb_build_object('booking_id', p_booking, 'message', message)),
        jsonb_build_object('u', conv.requester_id, 't', 'message.created', 'i', 1,
          'd', jsonb_build_object('booking_id', p_booking, 'message', message)));

      -- Only when something was unread to me: my reply moved my read mark past it, and my notification of it is read.
      my_read := CASE WHEN as_driver THEN conv.driver_read_at ELSE conv.requester_read_at END;
      IF conv.last_message_at IS NOT NULL AND (my_read IS NULL OR my_read < conv.last_message_at) THEN
        WITH read AS (
          UPDATE notifications SET read_at = now()
          WHERE user_id = p_sender AND group_key = 'message:' || p_booking AND read_at IS NULL
          RETURNING id
        )
        SELECT jsonb_agg(id) INTO read_ids FROM read;
        IF read_ids IS NOT NULL THEN
          events := events || jsonb_build_object('u', p_sender, 't', 'notification.read', 'i', 1000,
            'd', jsonb_build_object('ids', read_ids, 'all', false));
        END IF;
      END IF;

      -- The other person's notification, grouped per conversation while unread (a deleted account is told nothing).
      IF (SELECT u.deleted_at FROM users u WHERE u.id = other) IS NULL THEN
        INSERT INTO notifications AS n (user_id, type, data, group_key)
        SELECT other, 'message', jsonb_strip_nulls(jsonb_build_object(
            'actor_name', (SELECT p.full_name FROM profiles p WHERE p.user_id = p_sender),
            'title', (SELECT r.title FROM delivery_requests r WHERE r.id = conv.request_id),
            'booking_id', p_booking, 'request_id', conv.request_id)),
          'message:' || p_booking
        ON CONFLICT (user_id, group_key) WHERE read_at IS NULL DO UPDATE
          SET data = excluded.data || jsonb_build_object('count', coalesce((n.data ->> 'count')::int, 1) + 1),
              created_at = now()
        RETURNING n.id, n.type, n.data, n.created_at, n.read_at INTO note;
        IF NOT EXISTS (SELECT 1 FROM notification_preferences np
            WHERE np.user_id = other AND 'message' = ANY (np.email_off)) THEN
          INSERT INTO jobs (kind, payload, run_at, dedupe_key)
          VALUES ('notification-email', jsonb_build_object('notification_id', note.id),
            now() + make_interval(secs => p_mail_delay_seconds),
            'notification-email:' || note.id || ':' || floor(extract(epoch FROM now()) / p_mail_bucket_seconds)::bigint)
          ON CONFLICT (dedupe_key) DO NOTHING
          RETURNING true INTO woke;
          IF woke THEN
            PERFORM pg_notify('rr_jobs', '');
          END IF;
        END IF;
        events := events || jsonb_build_object('u', other, 't', 'notification.created', 'i', 2000,
          'd', jsonb_build_object('row', jsonb_build_object('id', note.id, 'type', note.type, 'data', note.data,
            'created_at', note.created_at, 'read_at', note.read_at)));
      END IF;

      PERFORM rr_outbox_flush(events);
      RETURN jsonb_build_object('message', message);
    END IF;
  END IF;

  RETURN jsonb_build_object('prior', jsonb_build_object('id', msg.id, 'booking_id', msg.booking_id,
    'sender_id', msg.sender_id, 'client_id', msg.client_id, 'body', msg.body,
    'created_at', to_char(msg.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')));
END
$$;
