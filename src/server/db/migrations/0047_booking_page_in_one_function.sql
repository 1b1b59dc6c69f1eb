-- Issue 39 (the write path): the booking page (GET /bookings/:id, and the answer of every move) in one function, so
-- a move answers its page in its own statement instead of a second round trip after it (decision 048). The page was
-- one prepared query in src/server/bookings/detail.ts; it is now rr_booking_page, which both the page and the moves
-- call, so there is one copy. What TypeScript decides (how long 'Report a problem' stays open, which payment states a
-- page shows) comes in as arguments.
--
-- One JSON object (json, not jsonb: its keys stay in this order and nothing is re-parsed), or null when the booking
-- is not the viewer's (only its driver and its requester see it). Its times are JSON timestamps (the timeline's in
-- toISOString()'s form); the reader in detail.ts turns it into the API's BookingDetail.
CREATE FUNCTION "rr_booking_page"("p_booking" uuid, "p_viewer" uuid, "p_report_window_hours" int,
    "p_payment_states" text[]) RETURNS json LANGUAGE plpgsql STABLE AS $$
BEGIN
  RETURN (
    SELECT json_build_object(
      'id', b.id,
      'status', b.status,
      'created_at', b.created_at,
      'driver_id', b.driver_id,
      'requester_id', b.requester_id,
      'delivery_code', b.delivery_code,
      'picked_up_at', b.picked_up_at,
      'on_hold_dispute_id', b.on_hold_dispute_id,
      'on_hold_chargeback_id', b.on_hold_chargeback_id,
      -- 'Report a problem' stays open this long after completion (the database's clock, as the report checks it).
      'in_report_window', coalesce(b.ended_at > clock_timestamp() - make_interval(hours => p_report_window_hours),
        false),
      -- null: no dispute; false: only resolved ones; true: one is open (at most one is).
      'open_dispute', (SELECT bool_or(d.state = 'open') FROM disputes d WHERE d.booking_id = b.id),
      'driver_name', dp.full_name,
      'requester_name', rp.full_name,
      'driver_verified', dp.verified,
      'requester_verified', rp.verified,
      'driver_plan', dp.plan,
      'requester_plan', rp.plan,
      'request_id', r.id,
      'title', r.title,
      'description', r.description,
      'pickup_location', r.pickup_location,
      'delivery_location', r.delivery_location,
      'needed_by_date', r.needed_by_date,
      'compensation_cents', r.compensation_cents,
      'request_status', r.status,
      'has_photo', EXISTS (SELECT 1 FROM booking_photos ph WHERE ph.booking_id = b.id),
      -- The timeline, oldest first: the same snapshot as the status.
      'events', coalesce((
        SELECT json_agg(json_build_object(
          'id', e.id::text,
          'type', e.type,
          'at', to_char(e.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
          'actor_id', e.actor_id,
          'actor_name', ap.full_name,
          'driver_id', e.driver_id,
          'reason', e.reason,
          'details', e.details
        ) ORDER BY e.created_at, e.id)
        FROM booking_events e LEFT JOIN profiles ap ON ap.user_id = e.actor_id
        WHERE e.booking_id = b.id
      ), '[]'::json),
      -- The payment (at most one in the states a page shows: a unique index). A card dispute shows until it is won
      -- or its warning is closed (src/server/payments/chargeback-shown.ts).
      'payment', (
        SELECT json_build_object(
          'state', p.state,
          'compensation_cents', p.compensation_cents,
          'fee_cents', p.fee_cents,
          'card_last4', p.card_last4,
          'credit_cents', p.credit_cents,
          'refunded_cents', p.refunded_cents,
          'held_at', p.held_at,
          'settled_at', p.settled_at,
          'provider', p.provider,
          'chargeback', EXISTS (SELECT 1 FROM chargebacks cb WHERE cb.payment_id = p.id
            AND cb.status NOT IN ('won', 'warning_closed'))
        )
        FROM payments p
        WHERE p.booking_id = b.id AND p.state = ANY (p_payment_states)
      ),
      -- The requester's credit, for the quote on a pending booking (the account's key as ledger.ts accountKey makes it).
      'requester_credit_cents', coalesce(
        (SELECT a.balance FROM ledger_accounts a WHERE a.key = 'credit:' || b.requester_id), 0)
    )
    FROM bookings b
    JOIN delivery_requests r ON r.id = b.request_id
    JOIN profiles dp ON dp.user_id = b.driver_id
    JOIN profiles rp ON rp.user_id = b.requester_id
    WHERE b.id = p_booking AND (b.driver_id = p_viewer OR b.requester_id = p_viewer)
  );
END
$$;--> statement-breakpoint

-- A booking's move (rr_booking_move_hinted, migration 0046) that also answers the page as the actor now sees it:
-- {"hints": [...], "page": {...}}. The page is read in the move's transaction, after its writes (a new statement:
-- a new snapshot that sees them), so it is exactly what the move left.
CREATE FUNCTION "rr_booking_move_answered"("p" jsonb, "p_report_window_hours" int, "p_payment_states" text[])
    RETURNS json LANGUAGE plpgsql AS $$
DECLARE
  hints jsonb;
BEGIN
  hints := rr_booking_move_hinted(p);
  RETURN json_build_object('hints', hints, 'page',
    rr_booking_page((p ->> 'booking')::uuid, (p ->> 'actor')::uuid, p_report_window_hours, p_payment_states));
END
$$;
