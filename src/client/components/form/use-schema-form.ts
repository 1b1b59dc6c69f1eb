import { useRef, useState, type FormEvent } from 'react';
import type { z } from 'zod';
import { toastFirstMessage } from '@/lib/form-errors';
import { toastApiError } from '@/lib/toast';

type Messages<K extends string> = Partial<Record<K, string>>;

/** What a form holds, by field name: a checkbox's tick, every other control's text. */
function readForm(form: HTMLFormElement): Record<string, string | boolean> {
  const values: Record<string, string | boolean> = {};
  for (const element of Array.from(form.elements)) {
    if (!(element instanceof HTMLInputElement || element instanceof HTMLTextAreaElement) || !element.name) continue;
    values[element.name] =
      element instanceof HTMLInputElement && element.type === 'checkbox' ? element.checked : element.value;
  }
  return values;
}

/**
 * A form of a prerendered public page (sign-in, sign-up) with its checks in the shared zod schema, without zod or a
 * form library in the page's first scripts (issue 34: /auth works on a slow phone within its first 100 KiB). The
 * controls are the browser's own (uncontrolled, read when sent), so whatever was typed before the page's script
 * arrived stays. The schema (`load`) is fetched when the person first focuses a field, and awaited when the form is
 * sent. As with the app's other forms: the first failing rule, in `order`, is the 'Validation Error' toast and its
 * field gets the focus; every failing field shows its message; once sent, the messages follow what is typed.
 */
export function useSchemaForm<K extends string, T>({
  load,
  order,
  onValid,
}: {
  load: () => Promise<z.ZodType<T>>;
  order: readonly K[];
  /** Sends the checked values; the form is busy until it settles. */
  onValid: (values: T) => Promise<unknown>;
}) {
  const [errors, setErrors] = useState<Messages<K>>({});
  const [busy, setBusy] = useState(false);
  const sent = useRef(false);
  const schema = useRef<Promise<z.ZodType<T>> | undefined>(undefined);
  const loadSchema = () =>
    (schema.current ??= load().catch((error: unknown) => {
      // Tried again at the next focus or press (a phone offline for a moment).
      schema.current = undefined;
      throw error;
    }));

  const check = async (form: HTMLFormElement) => {
    const result = await (await loadSchema()).safeParseAsync(readForm(form));
    const messages: Messages<K> = {};
    if (!result.success) {
      for (const issue of result.error.issues) {
        const key = issue.path[0] as K;
        if (order.includes(key)) messages[key] ??= issue.message;
      }
    }
    return { messages, data: result.success ? result.data : undefined };
  };

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = event.currentTarget;
    if (busy) return;
    setBusy(true);
    try {
      const { messages, data } = await check(form);
      sent.current = true;
      setErrors(messages);
      if (data === undefined) {
        const first = toastFirstMessage(messages, order);
        if (first) form.querySelector<HTMLElement>(`[name="${first}"]`)?.focus();
        return;
      }
      await onValid(data);
    } catch (error) {
      // The checks themselves could not be fetched: the line is down.
      toastApiError(error, 'No connection. Please try again.');
    } finally {
      setBusy(false);
    }
  };

  return {
    errors,
    /** Sets one field's message (the server's answer about it). */
    setError: (key: K, message: string) => setErrors((current) => ({ ...current, [key]: message })),
    busy,
    formProps: {
      method: 'post',
      noValidate: true,
      onFocus: () => void loadSchema().catch(() => undefined),
      onChange: (event: FormEvent<HTMLFormElement>) => {
        if (!sent.current) return;
        void check(event.currentTarget)
          .then(({ messages }) => setErrors(messages))
          .catch(() => undefined);
      },
      onSubmit: (event: FormEvent<HTMLFormElement>) => void onSubmit(event),
    },
  };
}
