import { onlineManager, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { WifiOff } from 'lucide-react';
import { useCallback, useSyncExternalStore } from 'react';
import { formatInstant } from '@/lib/format';

const subscribeToSignal = (onChange: () => void) => onlineManager.subscribe(() => onChange());
const isOnline = () => onlineManager.isOnline();

/** When the newest of the data on screen (the queries a page is showing) was loaded; 0 when nothing is shown. */
export function newestShownAt(client: QueryClient): number {
  let newest = 0;
  for (const query of client.getQueryCache().getAll()) {
    if (query.getObserversCount() > 0) newest = Math.max(newest, query.state.dataUpdatedAt);
  }
  return newest;
}

/**
 * Says, while the device has no signal, that the page shows what was loaded before (and from when), as a polite
 * status. It goes when the signal returns; the lists then refresh by themselves (TanStack Query refetches on
 * reconnect). Absent while online: a page with nothing to report has no status (the dashboard's axe tests hold it).
 */
export function OfflineBanner() {
  const client = useQueryClient();
  const online = useSyncExternalStore(subscribeToSignal, isOnline, () => true);
  const subscribeToCache = useCallback((onChange: () => void) => client.getQueryCache().subscribe(onChange), [client]);
  const shownAt = useSyncExternalStore(
    subscribeToCache,
    () => newestShownAt(client),
    () => 0,
  );
  if (online) return null;
  return (
    <p
      role="status"
      aria-live="polite"
      className="mb-4 flex items-center gap-2 rounded-md border border-border bg-muted px-4 py-3 text-base text-foreground"
    >
      <WifiOff aria-hidden className="size-5 shrink-0" />
      {shownAt > 0
        ? `You're offline. Showing what you last saw at ${formatInstant(new Date(shownAt).toISOString())}.`
        : "You're offline."}
    </p>
  );
}
