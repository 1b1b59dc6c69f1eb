import { sql } from 'drizzle-orm';
import { DISPUTE_WINDOW_HOURS } from '../../shared/disputes';
import type { AnyCancelReason, BookingEventType } from '../../shared/lifecycle';
import { PAYMENT_STATES, type BookingPayment, type PaymentState } from '../../shared/payments';

/**
 * The booking page's one query is the database function rr_booking_page (migration 0047): `GET /bookings/:id` calls
 * it, and every move but cancel answers it from its own statement (rr_booking_move_answered), so the page costs a move
 * no round trip of its own (decision 048). What TypeScript decides comes in as its last arguments: how long 'Report a
 * problem' stays open after completion, and the payment states a page shows.
 */
export const PAGE_ARGUMENTS = sql`${DISPUTE_WINDOW_HOURS}::int, ${`{${PAYMENT_STATES.join(',')}}`}::text[]`;

/** One timeline event as rr_booking_page answers it: times in toISOString()'s form. */
export interface EventJson {
  id: string;
  type: BookingEventType;
  at: string;
  actor_id: string | null;
  actor_name: string | null;
  driver_id: string;
  reason: AnyCancelReason | null;
  details: string | null;
}

/** The booking's payment as rr_booking_page answers it: bigints as numbers, times as JSON timestamps. */
export interface PaymentJson {
  state: PaymentState;
  compensation_cents: number;
  fee_cents: number;
  card_last4: string | null;
  credit_cents: number;
  refunded_cents: number;
  held_at: string;
  settled_at: string | null;
  provider: string;
  chargeback: BookingPayment['chargeback'];
}

/** The booking page as rr_booking_page answers it (null: not the viewer's booking). */
export interface PageJson {
  id: string;
  status: string;
  created_at: string;
  driver_id: string;
  requester_id: string;
  delivery_code: string | null;
  picked_up_at: string | null;
  on_hold_dispute_id: string | null;
  on_hold_chargeback_id: string | null;
  in_report_window: boolean;
  /** null: no dispute; false: only resolved ones; true: one is open. */
  open_dispute: boolean | null;
  driver_name: string;
  requester_name: string;
  driver_verified: boolean;
  requester_verified: boolean;
  driver_plan: string | null;
  requester_plan: string | null;
  request_id: string;
  title: string;
  description: string;
  pickup_location: string;
  delivery_location: string;
  needed_by_date: string | null;
  compensation_cents: number | null;
  request_status: string;
  has_photo: boolean;
  events: EventJson[];
  payment: PaymentJson | null;
  requester_credit_cents: number | string;
}
