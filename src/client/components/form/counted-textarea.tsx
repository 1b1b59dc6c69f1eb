import type * as React from 'react';
import { Textarea } from '@/components/ui/input';
import { Label } from '@/components/ui/label';

/** Past this share of the limit the counter appears ('912 / 1000'), like the message composer's. */
const COUNTER_FROM = 0.9;

/**
 * A labelled textarea whose text may run up to `limit` characters: a hint (or the error, which replaces it) and,
 * near the limit, a counter that turns red past it. Typing past the limit is allowed so the shared schema's message
 * can say why it is refused. The rest of the props (e.g. `register`) go to the textarea.
 */
export function CountedTextarea({
  id,
  label,
  hint,
  error,
  limit,
  length,
  ...textarea
}: {
  id: string;
  label: string;
  hint: string;
  error?: string;
  limit: number;
  /** The current text's length. */
  length: number;
} & Omit<React.ComponentProps<'textarea'>, 'id'>) {
  const tooLong = length > limit;
  const counted = length >= Math.floor(limit * COUNTER_FROM);
  const note = error ? `${id}-error` : `${id}-hint`;
  return (
    <div className="space-y-2">
      <Label htmlFor={id}>{label}</Label>
      <Textarea
        id={id}
        aria-invalid={error || tooLong ? true : undefined}
        aria-describedby={counted ? `${note} ${id}-counter` : note}
        {...textarea}
      />
      <div className="flex flex-wrap items-start justify-between gap-2">
        {error ? (
          <p id={`${id}-error`} role="alert" className="text-sm font-medium text-destructive">
            {error}
          </p>
        ) : (
          <p id={`${id}-hint`} className="text-sm text-muted-foreground">
            {hint}
          </p>
        )}
        <p id={`${id}-counter`} aria-live="polite" className={tooLong ? 'text-sm text-destructive' : 'text-sm'}>
          {counted ? `${length} / ${limit}` : ''}
        </p>
      </div>
    </div>
  );
}
