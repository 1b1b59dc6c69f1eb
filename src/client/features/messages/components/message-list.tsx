import { useLayoutEffect, useRef } from 'react';
import type * as React from 'react';
import type { Message } from '@shared/messages';
import { NOT_SENT_TEXT } from '@shared/messages';
import { Button } from '@/components/ui/button';
import { formatInstant } from '@/lib/format';
import { cn } from '@/lib/utils';

/**
 * A message I sent that the server has not confirmed yet ('Sending…'), kept on the device until there is a signal
 * ('Waiting to send'), or refused ('Not sent. Retry').
 */
export interface OutgoingMessage {
  client_id: string;
  body: string;
  created_at: string;
  status: 'sending' | 'queued' | 'failed';
}

type Row = { key: string; mine: boolean; body: string; created_at: string; note?: React.ReactNode };

/**
 * Keeps the newest message in view: at the bottom when the conversation opens and when a message arrives, and in
 * place (no jump) when earlier messages are put above.
 */
function useStickToBottom(firstKey: string | undefined, lastKey: string | undefined) {
  const box = useRef<HTMLDivElement>(null);
  const seen = useRef<{ first?: string; last?: string; height: number }>({ height: 0 });
  useLayoutEffect(() => {
    const el = box.current;
    if (!el) return;
    const before = seen.current;
    if (lastKey !== before.last) el.scrollTop = el.scrollHeight;
    else if (firstKey !== before.first) el.scrollTop += el.scrollHeight - before.height;
    seen.current = { first: firstKey, last: lastKey, height: el.scrollHeight };
  }, [firstKey, lastKey]);
  return box;
}

function Bubble({ row, who }: { row: Row; who: string }) {
  return (
    <li className={cn('flex max-w-[85%] flex-col gap-1', row.mine ? 'ml-auto items-end' : 'items-start')}>
      <p className="text-sm">
        <span className="font-semibold">{who}</span>{' '}
        <time dateTime={row.created_at} className="text-muted-foreground">
          {formatInstant(row.created_at)}
        </time>
      </p>
      {/* Plain text as sent: React escapes it, nothing becomes a link or markup; line breaks are kept. */}
      <p
        className={cn(
          'whitespace-pre-wrap break-words rounded-lg px-3 py-2 [overflow-wrap:anywhere]',
          row.mine ? 'bg-primary text-primary-foreground' : 'bg-muted text-foreground',
        )}
      >
        {row.body}
      </p>
      {row.note}
    </li>
  );
}

/**
 * The conversation, oldest first, in a box of its own height that scrolls (keyboard too: it is focusable). Under
 * my last delivered message 'Seen' once the other person's read mark has reached it.
 */
export function MessageList({
  messages,
  outgoing,
  myId,
  otherName,
  otherReadAt,
  older,
  onRetry,
}: {
  messages: Message[];
  outgoing: OutgoingMessage[];
  myId: string;
  otherName: string;
  otherReadAt: string | null;
  older: { has: boolean; loading: boolean; load: () => void };
  /** Absent when nobody may write here any more. */
  onRetry?: (message: OutgoingMessage) => void;
}) {
  const lastMine = messages.filter((m) => m.sender_id === myId).pop();
  const seen = lastMine && otherReadAt !== null && Date.parse(otherReadAt) >= Date.parse(lastMine.created_at);
  const rows: Row[] = [
    ...messages.map((m) => ({
      key: m.id,
      mine: m.sender_id === myId,
      body: m.body,
      created_at: m.created_at,
      note: seen && m === lastMine ? <p className="text-sm text-muted-foreground">Seen</p> : undefined,
    })),
    ...outgoing.map((m) => ({
      key: m.client_id,
      mine: true,
      body: m.body,
      created_at: m.created_at,
      note:
        m.status === 'sending' ? (
          <p className="text-sm text-muted-foreground">Sending…</p>
        ) : m.status === 'queued' ? (
          <p className="text-sm text-muted-foreground">Waiting to send</p>
        ) : onRetry ? (
          <Button variant="outline" size="sm" className="text-destructive" onClick={() => onRetry(m)}>
            {NOT_SENT_TEXT}
          </Button>
        ) : (
          <p className="text-sm text-destructive">Not sent.</p>
        ),
    })),
  ];
  const box = useStickToBottom(rows[0]?.key, rows[rows.length - 1]?.key);

  return (
    <div
      ref={box}
      tabIndex={0}
      role="region"
      aria-label={`Conversation with ${otherName}`}
      className="max-h-[60vh] space-y-4 overflow-y-auto rounded-md border p-3 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
    >
      {older.has ? (
        <div className="flex justify-center">
          <Button variant="outline" size="sm" disabled={older.loading} onClick={older.load}>
            {older.loading ? 'Loading...' : 'Load earlier messages'}
          </Button>
        </div>
      ) : null}
      {rows.length === 0 ? (
        <p className="text-center text-muted-foreground">No messages yet.</p>
      ) : (
        <ol className="space-y-4" aria-label="Messages">
          {rows.map((row) => (
            <Bubble key={row.key} row={row} who={row.mine ? 'You' : otherName} />
          ))}
        </ol>
      )}
    </div>
  );
}
