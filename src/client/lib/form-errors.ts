import type { FieldErrors, FieldValues } from 'react-hook-form';
import { toastError } from './toast';

/**
 * The spec shows the first failing rule as a 'Validation Error' toast. "First" follows the schema's field order,
 * which is the order passed here, so the toast is the same whatever the resolver's internal ordering.
 */
export function toastFirstError<T extends FieldValues>(errors: FieldErrors<T>, order: readonly (keyof T & string)[]) {
  const first = order.map((k) => errors[k]?.message).find((m): m is string => typeof m === 'string' && m.length > 0);
  toastError('Validation Error', first ?? 'Please check your input');
}
