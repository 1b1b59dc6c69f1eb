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
    const m = firstNestedMessage(errors[k]);
    if (m !== undefined) messages[k] = m;
  }
  return toastFirstMessage(messages, order);
}

/**
 * A field's message, or for a list of fields (a ride's stops) its own message or else its first item's, in order.
 * react-hook-form keeps a list's errors as an array (with holes) of per-item errors beside the list's own.
 */
function firstNestedMessage(error: unknown): string | undefined {
  if (!error || typeof error !== 'object') return undefined;
  const { message } = error as { message?: unknown };
  if (typeof message === 'string' && message.length > 0) return message;
  const root = (error as { root?: unknown }).root;
  const items = Array.isArray(error) ? error : Object.entries(error).flatMap(([k, v]) => (k === 'ref' ? [] : [v]));
  for (const item of [root, ...items]) {
    const found = firstNestedMessage(item);
    if (found !== undefined) return found;
  }
  return undefined;
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
