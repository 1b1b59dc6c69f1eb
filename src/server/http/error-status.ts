import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { ErrorCode, ServerErrorBody } from '../../shared/errors';
import type { DomainErrorDetails } from '../core/domain-error';

interface HttpAnswer {
  status: ContentfulStatusCode;
  /** Headers the answer carries besides the envelope. */
  headers?: (details: DomainErrorDetails) => Record<string, string>;
}

const retryAfter = ({ retryAfterSeconds }: DomainErrorDetails): Record<string, string> =>
  retryAfterSeconds === undefined ? {} : { 'Retry-After': String(retryAfterSeconds) };

/**
 * The one table from a stable error code to its HTTP answer. Services throw DomainError with a code and no status
 * (docs/decisions/015-layer-boundaries-and-domain-errors.md); every error body leaves through sendError below.
 */
export const ERROR_HTTP: Record<ErrorCode, HttpAnswer> = {
  validation_error: { status: 400 },
  malformed_json: { status: 400 },
  unauthenticated: { status: 401 },
  invalid_credentials: { status: 401 },
  forbidden_origin: { status: 403 },
  not_found: { status: 404 },
  method_not_allowed: { status: 405 },
  email_taken: { status: 409 },
  request_unavailable: { status: 409 },
  already_accepted: { status: 409 },
  own_request: { status: 409 },
  // The booking is no longer in the state the action needs, or the caller's role may not take it.
  booking_state_changed: { status: 409 },
  confirmed_booking_exists: { status: 409 },
  // Well-formed, but not the booking's code: the request was understood and refused.
  wrong_delivery_code: { status: 422 },
  delivery_code_locked: { status: 429, headers: retryAfter },
  invalid_image: { status: 400 },
  // A paid request's choice needs a card; another choice of the same request is paying now; the card was refused
  // (402, as Stripe answers a declined card).
  payment_required: { status: 400 },
  payment_in_progress: { status: 409 },
  card_declined: { status: 402 },
  // Disputes: outside the window or not a paid booking; one open already; the booking held by one; decided already;
  // a response that is not the other person's one.
  dispute_not_allowed: { status: 409 },
  dispute_open: { status: 409 },
  dispute_on_hold: { status: 409 },
  dispute_already_decided: { status: 409 },
  dispute_response_not_allowed: { status: 409 },
  chargeback_on_hold: { status: 409 },
  chargeback_open: { status: 409 },
  chargeback_not_possible: { status: 409 },
  chargeback_closed: { status: 409 },
  // A webhook not signed with our secret: refused, never stored (Stripe shows the 400 on the endpoint's page).
  invalid_signature: { status: 400 },
  // The conversation is read-only now (30 days after the booking ended).
  conversation_closed: { status: 409 },
  // One of the two blocked the other: nothing passes between them.
  blocked: { status: 403 },
  account_suspended: { status: 403 },
  report_already_resolved: { status: 409 },
  idempotency_key_reused: { status: 422 },
  idempotency_in_progress: { status: 409 },
  idempotency_answer_not_kept: { status: 409 },
  // A review of a booking that is not completed, after the 14-day period, a second one, or a second reply.
  review_not_open: { status: 409 },
  review_period_ended: { status: 409 },
  already_reviewed: { status: 409 },
  already_replied: { status: 409 },
  reset_link_expired: { status: 400 },
  wrong_password: { status: 400 },
  // The session's last password (+ code) check is older than RECENT_CHECK_MINUTES: 'Confirm it's you' first.
  reauth_required: { status: 403 },
  code_required: { status: 400 },
  wrong_code: { status: 400 },
  // Two-factor is already on (set-up), or no set-up was started (enable), or it is off (turn off).
  two_factor_state: { status: 409 },
  email_link_expired: { status: 400 },
  email_already_verified: { status: 409 },
  route_needs_places: { status: 409 },
  own_ride: { status: 409 },
  phone_taken: { status: 409 },
  phone_already_yours: { status: 409 },
  phone_code_expired: { status: 400 },
  // The connection closes after this answer, so an unread rest of the body cannot be taken for a request.
  payload_too_large: { status: 413, headers: () => ({ Connection: 'close' }) },
  unsupported_media_type: { status: 415 },
  too_many_requests: { status: 429, headers: retryAfter },
  // An ID check waiting already, the ID checked already, a check decided already, or its name changed since.
  id_check_state: { status: 409 },
  plan_state: { status: 409 },
  plans_unavailable: { status: 409 },
  // Understood, but the member's plan (Free) does not include it: the same answer whatever they send.
  plan_required: { status: 403 },
  internal_error: { status: 500 },
};

/** The shared envelope (src/shared/errors.ts) with the code's status and headers. */
export function sendError(c: Context, code: ErrorCode, message: string, details: DomainErrorDetails = {}): Response {
  const { status, headers } = ERROR_HTTP[code];
  for (const [name, value] of Object.entries(headers?.(details) ?? {})) c.header(name, value);
  return c.json({ code, message } satisfies ServerErrorBody, status);
}
