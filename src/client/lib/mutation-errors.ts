import { DISPUTE_ERRORS } from '@shared/disputes';
import { LIFECYCLE_ERRORS } from '@shared/lifecycle';
import { MARKETPLACE_ERRORS } from '@shared/marketplace';
import { CHARGEBACK_ERRORS, PAYMENT_ERRORS } from '@shared/payments';
import { REVIEW_ERRORS } from '@shared/reviews';
import { ApiError, isQueued } from './api-client';
import { toastApiError, toastError } from './toast';

/** A marketplace write refused by the per-user write throttle. */
export const TOO_OFTEN_MESSAGE = "You're doing that too often. Please wait a moment.";

const isThrottled = (err: unknown) => err instanceof ApiError && err.code === 'too_many_requests';

/** The spec's (or the lifecycle's, the reviews', the payments', the disputes' or the chargebacks') title and text for a stable refusal code, if it has one. */
function knownRefusal(err: unknown): { title: string; message: string } | undefined {
  if (!(err instanceof ApiError)) return undefined;
  if (Object.hasOwn(MARKETPLACE_ERRORS, err.code))
    return MARKETPLACE_ERRORS[err.code as keyof typeof MARKETPLACE_ERRORS];
  if (Object.hasOwn(LIFECYCLE_ERRORS, err.code)) return LIFECYCLE_ERRORS[err.code as keyof typeof LIFECYCLE_ERRORS];
  if (Object.hasOwn(REVIEW_ERRORS, err.code)) return REVIEW_ERRORS[err.code as keyof typeof REVIEW_ERRORS];
  if (Object.hasOwn(PAYMENT_ERRORS, err.code)) return PAYMENT_ERRORS[err.code as keyof typeof PAYMENT_ERRORS];
  if (Object.hasOwn(DISPUTE_ERRORS, err.code)) return DISPUTE_ERRORS[err.code as keyof typeof DISPUTE_ERRORS];
  if (Object.hasOwn(CHARGEBACK_ERRORS, err.code)) return CHARGEBACK_ERRORS[err.code as keyof typeof CHARGEBACK_ERRORS];
  return undefined;
}

/**
 * Spec section 8 for failed marketplace writes (post ride, create request, accept, booking actions): a server-side
 * validation failure is a 'Validation Error' toast with its first message; the marketplace's, the lifecycle's and
 * the reviews' stable codes and the write throttle get their own title and text; anything else is 'Error' + the
 * message.
 */
export function toastMutationError(err: unknown) {
  if (err instanceof ApiError) {
    if (err.code === 'validation_error') return toastError('Validation Error', err.message);
    if (isThrottled(err)) return toastError('Error', TOO_OFTEN_MESSAGE);
    const known = knownRefusal(err);
    if (known) return toastError(known.title, known.message);
  }
  toastApiError(err);
}

/**
 * Deletes keep the spec's own failure text ('Failed to delete ride'), except when the delete was kept to send later,
 * the write throttle refused or the refusal has a stable code with its own text (a request with a confirmed booking cannot be deleted).
 */
export function toastDeleteError(err: unknown, failure: string) {
  if (isQueued(err)) return toastError('Error', err.message);
  if (isThrottled(err)) return toastError('Error', TOO_OFTEN_MESSAGE);
  const known = knownRefusal(err);
  toastError(known?.title ?? 'Error', known?.message ?? failure);
}
