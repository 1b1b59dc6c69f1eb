import type * as React from 'react';
import type { FieldValues, Path, UseFormReturn, UseFormSetError } from 'react-hook-form';
import { DETAILS_REQUIRED_MESSAGE, DETAILS_TOO_LONG_MESSAGE, ITEM_VALUE_MESSAGE } from '@shared/disputes';
import { sendThenClose } from '@/components/form-dialog';
import { ApiError } from '@/lib/api-client';
import { toastFirstError } from '@/lib/form-errors';

type DisputeField = 'reason' | 'details' | 'item_value' | 'photos';

/** A 'validation_error' message's field, tried in this order (the details' own messages say 'what happened'). */
const RULES: readonly [DisputeField, (message: string) => boolean][] = [
  ['details', (m) => m === DETAILS_REQUIRED_MESSAGE || m === DETAILS_TOO_LONG_MESSAGE],
  ['item_value', (m) => m === ITEM_VALUE_MESSAGE],
  ['photos', (m) => /photo|image/i.test(m)],
  ['reason', (m) => /happened|reason/i.test(m)],
];

/** Which of `fields` the server's refusal is about, if any: an unreadable image is the photos'. */
function fieldOf<K extends DisputeField>(err: unknown, fields: readonly K[]): K | undefined {
  if (!(err instanceof ApiError)) return undefined;
  const has = (field: DisputeField): field is K => (fields as readonly DisputeField[]).includes(field);
  const field: DisputeField | undefined =
    err.code === 'invalid_image'
      ? 'photos'
      : err.code === 'validation_error'
        ? RULES.find(([name, test]) => has(name) && test(err.message))?.[0]
        : undefined;
  return field && has(field) ? field : undefined;
}

/**
 * A dispute form's server refusal (the report's, the response's), back under the field it is about ('Validation
 * Error' has toasted it too); focus goes there, except to the photos' file input.
 */
export function setServerFieldError<T extends FieldValues, K extends DisputeField & Path<T>>(
  setError: UseFormSetError<T>,
  fields: readonly K[],
  err: unknown,
): void {
  const field = fieldOf(err, fields);
  if (field && err instanceof ApiError) setError(field, { message: err.message }, { shouldFocus: field !== 'photos' });
}

/**
 * The submit of a dispute's dialog form (the report, the response): checked in `order`, the first failing rule is the
 * 'Validation Error' toast and its field gets the focus; once valid, `send` and then `onSent` (which closes the
 * dialog; a change kept to send later closes it too), or the server's refusal back under its field with the dialog
 * kept open (sendThenClose).
 */
export function disputeFormSubmit<T extends FieldValues, V, K extends DisputeField & keyof T & Path<T>>(
  form: UseFormReturn<T, unknown, V>,
  order: readonly K[],
  send: (values: V) => Promise<unknown>,
  onSent: () => void,
) {
  return (event: React.FormEvent<HTMLFormElement>) =>
    form.handleSubmit(
      (values) =>
        sendThenClose(
          () => send(values),
          onSent,
          (err) => setServerFieldError(form.setError, order, err),
        ),
      (errors) => {
        // One of `order` (toastFirstError answers the field it toasted).
        const first = toastFirstError(errors, order) as K | undefined;
        if (first) form.setFocus(first);
      },
    )(event);
}
