import type { FieldErrors, FieldValues } from 'react-hook-form';
import { toastError } from './toast';

/**
 * The spec shows the first failing rule as a 'Validation Error' toast. "First" follows the schema's field order,
 * which is the order passed here, so the toast is the same whatever the resolver's internal ordering. Returns the
 * field it reported, for a form whose visual order differs from the schema's to move focus there.
 */
export function toastFirstError<T extends FieldValues>(
  errors: FieldErrors<T>,
  order: readonly (keyof T & string)[],
): (keyof T & string) | undefined {
  const messageOf = (k: keyof T & string) => {
    const m = errors[k]?.message;
    return typeof m === 'string' && m.length > 0 ? m : undefined;
  };
  const first = order.find((k) => messageOf(k) !== undefined);
  toastError('Validation Error', (first && messageOf(first)) ?? 'Please check your input');
  return first;
}
