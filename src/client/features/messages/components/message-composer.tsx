import { SendHorizontal } from 'lucide-react';
import { useId, useState } from 'react';
import type * as React from 'react';
import { MESSAGE_COUNTER_FROM, MESSAGE_MAX, MESSAGE_TOO_LONG, sendMessageSchema } from '@shared/messages';
import { Button } from '@/components/ui/button';
import { Textarea } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { toastError } from '@/lib/toast';

/**
 * 'Message' and 'Send': Enter sends, Shift+Enter starts a new line. Blank text cannot be sent at all; past 2000
 * characters the shared schema's message says why it is refused. `onSend` gets the text as typed.
 */
export function MessageComposer({ onSend }: { onSend: (body: string) => void }) {
  const id = useId();
  const [text, setText] = useState('');
  const blank = text.trim().length === 0;
  const tooLong = text.length > MESSAGE_MAX;

  const submit = () => {
    if (blank) return;
    const checked = sendMessageSchema.shape.body.safeParse(text);
    if (!checked.success) {
      toastError('Validation Error', checked.error.issues[0]?.message ?? MESSAGE_TOO_LONG);
      return;
    }
    onSend(text);
    setText('');
  };

  const onKeyDown = (event: React.KeyboardEvent<HTMLTextAreaElement>) => {
    // Not while an input method is composing a character: its Enter picks the character.
    if (event.key !== 'Enter' || event.shiftKey || event.nativeEvent.isComposing) return;
    event.preventDefault();
    submit();
  };

  return (
    <form
      className="space-y-2"
      onSubmit={(event) => {
        event.preventDefault();
        submit();
      }}
    >
      <Label htmlFor={`${id}-message`}>Message</Label>
      <Textarea
        id={`${id}-message`}
        rows={3}
        value={text}
        onChange={(event) => setText(event.target.value)}
        onKeyDown={onKeyDown}
        aria-invalid={tooLong || undefined}
        aria-describedby={`${id}-hint ${id}-counter${tooLong ? ` ${id}-error` : ''}`}
        className="min-h-20"
      />
      {tooLong ? (
        <p id={`${id}-error`} role="alert" className="text-sm font-medium text-destructive">
          {MESSAGE_TOO_LONG}
        </p>
      ) : null}
      <div className="flex flex-wrap items-center justify-between gap-2">
        <p id={`${id}-hint`} className="text-sm text-muted-foreground">
          Enter sends. Shift+Enter starts a new line.
        </p>
        <div className="flex items-center gap-3">
          <p id={`${id}-counter`} aria-live="polite" className={tooLong ? 'text-sm text-destructive' : 'text-sm'}>
            {text.length >= MESSAGE_COUNTER_FROM ? `${text.length} / ${MESSAGE_MAX}` : ''}
          </p>
          <Button type="submit" disabled={blank}>
            <SendHorizontal aria-hidden />
            Send
          </Button>
        </div>
      </div>
    </form>
  );
}
