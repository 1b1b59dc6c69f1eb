import { z } from 'zod';

/**
 * Stable error codes returned by the API as `{ code, message }`.
 * The client branches on `code`; `message` is for people.
 */
export const ERROR_CODES = [
  'validation_error',
  'malformed_json',
  'unsupported_media_type',
  'unauthenticated',
  'forbidden_origin',
  'not_found',
  'method_not_allowed',
  'email_taken',
  'invalid_credentials',
  'too_many_requests',
  'payload_too_large',
  'request_unavailable',
  'already_accepted',
  'own_request',
  // The booking lifecycle (src/shared/lifecycle.ts, LIFECYCLE_ERRORS).
  'booking_state_changed',
  'wrong_delivery_code',
  'delivery_code_locked',
  'confirmed_booking_exists',
  'invalid_image',
  // Payments (issue 35): no card for a paid request, another choice of it paying now, the card refused.
  'payment_required',
  'payment_in_progress',
  'card_declined',
  // A provider's webhook (Stripe's) whose signature is missing or does not match its signing secret.
  'invalid_signature',
  // Messages and moderation (src/shared/messages.ts, src/shared/moderation.ts).
  'conversation_closed',
  'blocked',
  'account_suspended',
  // A moderator acted on a report someone else (or they, a moment ago) already resolved.
  'report_already_resolved',
  // The same idempotency key (a message's client_id) sent again with a different body.
  'idempotency_key_reused',
  // A write with the same Idempotency-Key is still running (src/shared/idempotency.ts).
  'idempotency_in_progress',
  // A repeat of a write whose answer held a secret shown once: the answer was not kept (src/shared/idempotency.ts).
  'idempotency_answer_not_kept',
  // Reviews (src/shared/reviews.ts, REVIEW_ERRORS); already_replied is also the support inbox's message answered
  // already (src/shared/support.ts).
  'review_not_open',
  'review_period_ended',
  'already_reviewed',
  'already_replied',
  // Account recovery (src/shared/account.ts): a reset link that expired, was used, or never existed.
  'reset_link_expired',
  // A settings form's 'Current password' is wrong (400: it is a field error, not a signed-out session).
  'wrong_password',
  // Two-factor and the re-check of sensitive actions (src/shared/two-factor.ts).
  'reauth_required',
  'code_required',
  'wrong_code',
  'two_factor_state',
  // The new address's confirmation link (src/shared/account.ts) expired, was used, or never existed.
  'email_link_expired',
  // 'Resend email' when the address is confirmed already (src/shared/verification.ts).
  'email_already_verified',
  // Along the route (src/shared/places.ts): the ride's origin or destination is free text, so no corridor exists.
  'route_needs_places',
  // 'Ask to carry something' on my own ride.
  'own_ride',
  // Disputes (src/shared/disputes.ts, DISPUTE_ERRORS).
  'dispute_not_allowed',
  'dispute_open',
  'dispute_on_hold',
  'dispute_already_decided',
  'dispute_response_not_allowed',
  // A card dispute (chargeback) the provider reported holds the booking's money until the bank decides.
  'chargeback_on_hold',
  // The admin page's test chargebacks (src/shared/payments.ts, CHARGEBACK_ERRORS).
  'chargeback_open',
  'chargeback_not_possible',
  'chargeback_closed',
  // Phone verification (src/shared/verification.ts): the number is verified on another account, or already mine;
  // no code that still works (expired, used, replaced, or too many wrong tries).
  'phone_taken',
  'phone_already_yours',
  'phone_code_expired',
  // ID checks (src/shared/verification.ts, ID_CHECK_ERRORS): one waiting, already checked, already decided, the name
  // changed since it was sent.
  'id_check_state',
  // Paid plans (issue 38): the plan is not in the state the move needs; plans cannot be bought with this setup.
  'plan_state',
  'plans_unavailable',
  // A paid plan's benefit asked for by a member on Free (src/shared/plans.ts), e.g. a ride's stops.
  'plan_required',
  'internal_error',
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

/**
 * The one error envelope: what the error handler sends, what the OpenAPI document describes and what the client
 * accepts as a server's refusal. `code` stays a plain string here, so a client keeps working when codes are added.
 */
export const errorBodySchema = z.object({
  code: z.string().min(1),
  message: z.string(),
});
type ApiErrorBody = z.infer<typeof errorBodySchema>;
/** What this server sends: the same envelope, with a code from ERROR_CODES. */
export interface ServerErrorBody extends ApiErrorBody {
  code: ErrorCode;
}
