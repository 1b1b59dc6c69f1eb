-- Issue 39 (the write path), decision 045: the attempt counters' hit inside the statement of the write it guards,
-- instead of a round trip of its own before it. An accept (POST /bookings) and a message were two and three
-- statements (the write throttle's hit, a message's own allowance, then the write); each is now one.
--
-- rr_count_hits is the attempt counter's one upsert (src/server/limits/attempt-counter.ts calls it too, so there is
-- one copy): for each hit in order, insert its key or add `adds` to its count (1 for a hit, 0 for a check),
-- restarting the window once it has ended. It stops at the first hit over its `max` (the later ones are not counted,
-- as a refused middleware stops the ones after it) and answers {"refused": its index or null, "retry_after": seconds
-- until that window ends (at least 1), "window_start": ...}, of the refused hit or else of the last one.
-- Its argument: [{key, window_ms, max, adds}]. Each key's row stays locked until the caller's transaction ends, so a
-- caller counts its hits before it takes any other lock (and always in the same order: the write throttle first).
CREATE FUNCTION "rr_count_hits"("p" jsonb) RETURNS jsonb LANGUAGE plpgsql AS $$
DECLARE
  h record;
  counted record;
  i int := 0;
BEGIN
  FOR h IN SELECT * FROM jsonb_to_recordset(p) AS x(key text, window_ms float8, max int, adds int) LOOP
    INSERT INTO attempt_counters AS c (key, hits, window_start, window_end)
    VALUES (h.key, h.adds, now(), now() + h.window_ms * interval '1 millisecond')
    ON CONFLICT (key) DO UPDATE SET
      -- Saturates instead of overflowing integer under an endless flood on one key in a long window.
      hits = CASE WHEN c.window_end <= now() THEN excluded.hits ELSE least(c.hits, 2147483646) + excluded.hits END,
      window_start = CASE WHEN c.window_end <= now() THEN excluded.window_start ELSE c.window_start END,
      window_end = CASE WHEN c.window_end <= now() THEN excluded.window_end ELSE c.window_end END
    -- The clock now, not the transaction's start: a statement that waited on the row while another set the window
    -- started before that window's start, and would wait 901 s of a 900 s window.
    RETURNING c.hits, c.window_start, greatest(1, ceil(extract(epoch FROM c.window_end - clock_timestamp())))::int AS wait
    INTO counted;
    -- A check's own try is not in the count: it passes when one more would still be within max.
    IF counted.hits + 1 - h.adds > h.max THEN
      RETURN jsonb_build_object('refused', i, 'retry_after', counted.wait, 'window_start', counted.window_start);
    END IF;
    i := i + 1;
  END LOOP;
  IF i = 0 THEN
    RETURN jsonb_build_object('refused', NULL);
  END IF;
  RETURN jsonb_build_object('refused', NULL, 'retry_after', counted.wait, 'window_start', counted.window_start);
END
$$;--> statement-breakpoint

-- A driver's offer with its hits counted first: {"limited": rr_count_hits's answer} when one is over its allowance
-- (nothing else written), else what rr_accept_offer (migration 0040) answers. A second live offer of the same driver
-- on the request is refused here, so its hit stays counted; two at the same moment still meet the unique index, and
-- the one that fails is rolled back with its hit.
CREATE FUNCTION "rr_accept_offer"("p_request" uuid, "p_driver" uuid, "p_hits" jsonb) RETURNS jsonb
LANGUAGE plpgsql AS $$
DECLARE
  counted jsonb;
BEGIN
  counted := rr_count_hits(p_hits);
  IF counted ->> 'refused' IS NOT NULL THEN
    RETURN jsonb_build_object('limited', counted);
  END IF;
  IF EXISTS (SELECT 1 FROM bookings b WHERE b.request_id = p_request AND b.driver_id = p_driver
      AND b.status IN ('pending', 'confirmed', 'completed')) THEN
    RETURN jsonb_build_object('refused', 'already_accepted');
  END IF;
  RETURN rr_accept_offer(p_request, p_driver);
END
$$;--> statement-breakpoint

-- A message with its hits counted first (the write throttle, then the messages' own allowance): {"limited": ...}
-- when one is over (nothing else written), else what rr_send_message (migration 0041) answers.
CREATE FUNCTION "rr_send_message"("p_booking" uuid, "p_sender" uuid, "p_client_id" uuid, "p_body" text,
  "p_open_hours" int, "p_mail_delay_seconds" int, "p_mail_bucket_seconds" int, "p_hits" jsonb) RETURNS jsonb
LANGUAGE plpgsql AS $$
DECLARE
  counted jsonb;
BEGIN
  counted := rr_count_hits(p_hits);
  IF counted ->> 'refused' IS NOT NULL THEN
    RETURN jsonb_build_object('limited', counted);
  END IF;
  RETURN rr_send_message(p_booking, p_sender, p_client_id, p_body, p_open_hours, p_mail_delay_seconds,
    p_mail_bucket_seconds);
END
$$;
