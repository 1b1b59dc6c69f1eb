import { MARKETPLACE_ERRORS } from '../../shared/marketplace';
import { ApiError } from './api-client';
import { toastApiError, toastError } from './toast';

/**
 * Spec section 8 for failed writes: a server-side validation failure is a 'Validation Error' toast with its first
 * message; the marketplace's stable codes get their spec title and text; anything else is 'Error' + the message.
 */
export function toastMutationError(err: unknown) {
  if (err instanceof ApiError) {
    if (err.code === 'validation_error') return toastError('Validation Error', err.message);
    if (err.code in MARKETPLACE_ERRORS) {
      const known = MARKETPLACE_ERRORS[err.code as keyof typeof MARKETPLACE_ERRORS];
      return toastError(known.title, known.message);
    }
  }
  toastApiError(err);
}
