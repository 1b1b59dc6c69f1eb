import { MARKETPLACE_ERRORS } from '../../shared/marketplace';
import { ApiError } from './api-client';
import { toastApiError, toastError } from './toast';

/** Issue 8, defect 6: a marketplace write refused by the per-user write throttle. */
export const TOO_OFTEN_MESSAGE = "You're doing that too often. Please wait a moment.";

const isThrottled = (err: unknown) => err instanceof ApiError && err.code === 'too_many_requests';

/**
 * Spec section 8 for failed marketplace writes (post ride, create request, accept): a server-side validation
 * failure is a 'Validation Error' toast with its first message; the marketplace's stable codes and the write
 * throttle get their own title and text; anything else is 'Error' + the message.
 */
export function toastMutationError(err: unknown) {
  if (err instanceof ApiError) {
    if (err.code === 'validation_error') return toastError('Validation Error', err.message);
    if (isThrottled(err)) return toastError('Error', TOO_OFTEN_MESSAGE);
    if (err.code in MARKETPLACE_ERRORS) {
      const known = MARKETPLACE_ERRORS[err.code as keyof typeof MARKETPLACE_ERRORS];
      return toastError(known.title, known.message);
    }
  }
  toastApiError(err);
}

/** Deletes keep the spec's own failure text ('Failed to delete ride'), except when the write throttle refused. */
export function toastDeleteError(err: unknown, failure: string) {
  toastError('Error', isThrottled(err) ? TOO_OFTEN_MESSAGE : failure);
}
