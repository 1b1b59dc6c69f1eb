import { Clock } from 'lucide-react';
import { useId, useMemo, useSyncExternalStore } from 'react';
import { Button } from '@/components/ui/button';
import { formatInstant } from '@/lib/format';
import { sendQueue } from '@/offline/send-queue';

/**
 * 'Waiting to send (N)': the changes made with no signal, kept on the device and sent in order when it returns
 * (offline/send-queue.ts), each with 'Discard' for one the person no longer wants. Absent when nothing waits.
 */
export function WaitingToSend({ userId }: { userId: string }) {
  const entries = useSyncExternalStore(sendQueue.subscribe, sendQueue.all, sendQueue.all);
  const mine = useMemo(() => entries.filter((e) => e.userId === userId), [entries, userId]);
  const headingId = useId();
  if (mine.length === 0) return null;
  return (
    <section
      aria-labelledby={headingId}
      className="mb-4 space-y-2 rounded-md border border-border bg-muted px-4 py-3 text-base text-foreground"
    >
      <h2 id={headingId} className="flex items-center gap-2 font-semibold">
        <Clock aria-hidden className="size-5 shrink-0" />
        Waiting to send ({mine.length})
      </h2>
      <ul className="space-y-2">
        {mine.map((entry) => (
          <li key={entry.key} className="flex items-center justify-between gap-3">
            <span className="min-w-0">
              <span className="block truncate">{entry.label}</span>
              <span className="block text-sm text-muted-foreground">
                Saved {formatInstant(new Date(entry.queuedAt).toISOString())}
              </span>
            </span>
            <Button
              variant="outline"
              size="sm"
              aria-label={`Discard: ${entry.label}`}
              onClick={() => void sendQueue.discard(entry.key)}
            >
              Discard
            </Button>
          </li>
        ))}
      </ul>
    </section>
  );
}
