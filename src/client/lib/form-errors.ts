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
  const messages: Partial<Record<keyof T & string, string>> = {};
  for (const k of order) {
    const m = errors[k]?.message;
    if (typeof m === 'string' && m.length > 0) messages[k] = m;
  }
  return toastFirstMessage(messages, order);
}

/** The message react-hook-form holds for one field, if any (what the field shows under itself). */
export function messageOf<T extends FieldValues>(errors: FieldErrors<T>, name: keyof T & string): string | undefined {
  const message = errors[name]?.message;
  return typeof message === 'string' ? message : undefined;
}

/** toastFirstError for a form that keeps its messages by field itself (useSchemaForm). */
export function toastFirstMessage<K extends string>(
  messages: Partial<Record<K, string>>,
  order: readonly K[],
): K | undefined {
  const first = order.find((k) => messages[k] !== undefined);
  toastError('Validation Error', (first && messages[first]) ?? 'Please check your input');
  return first;
}
