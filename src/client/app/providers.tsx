import { MutationCache, onlineManager, QueryCache, QueryClient } from '@tanstack/react-query';
import { sessionQueryKey } from '@/features/auth/api/session';
import { ApiError } from '@/lib/api-client';
import { followConnectivity } from '@/offline/connectivity';
import { OFFLINE_MAX_AGE_MS } from '@/offline/snapshot-place';
import { toastError } from '@/lib/toast';

declare module '@tanstack/react-query' {
  interface Register {
    /** `errorToast`: the spec's description for a failed load (e.g. 'Failed to fetch rides'), shown as 'Error'. */
    queryMeta: { errorToast?: string };
  }
}

export function createQueryClient() {
  /**
   * A 401 on a load means the session ended on the server (idle or absolute lifetime, or signed out in another tab):
   * record the signed-out state, and the dashboard layout sends the user to /auth. A failed submit does not redirect:
   * its toast says to sign in, and what the user typed stays in the form.
   */
  const onSessionEnded = (err: unknown) => {
    if (err instanceof ApiError && err.code === 'unauthenticated') {
      client.setQueryData(sessionQueryKey, { user: null, session: null });
    }
  };
  const client: QueryClient = new QueryClient({
    queryCache: new QueryCache({
      onError: (err, query) => {
        onSessionEnded(err);
        const description = query.meta?.errorToast;
        if (description) toastError('Error', description);
      },
    }),
    mutationCache: new MutationCache(),
    defaultOptions: {
      // A write runs even when the browser says it is offline (TanStack would pause it, its button busy until the
      // signal returns): the send queue keeps a change for later, anything else answers 'No connection'.
      mutations: { networkMode: 'always' },
      queries: {
        retry: (count, err) => !(err instanceof ApiError && err.status >= 400 && err.status < 500) && count < 2,
        refetchOnWindowFocus: false,
      },
    },
  });
  return client;
}

/**
 * The app's one query cache. It lives outside React because the query layout is mounted in two places of the
 * route tree (/auth and /contact inside the public layout, /dashboard outside it): both share this cache, so
 * signing in on /auth and landing on /dashboard keeps the session that was just loaded.
 */
export const queryClient = createQueryClient();
// What was loaded stays in memory as long as its copy on the device is kept (offline/query-persistence.ts): offline,
// a list seen hours ago is still there to show, and still in the next snapshot. Not when prerendering in Node
// (no window): there each query's 7-day collection timer would keep the build process alive after it is done
// (TanStack's own server default, Infinity, schedules none).
if (typeof window !== 'undefined') {
  queryClient.setDefaultOptions({
    ...queryClient.getDefaultOptions(),
    queries: { ...queryClient.getDefaultOptions().queries, gcTime: OFFLINE_MAX_AGE_MS },
  });
}
// TanStack Query assumes it is online until the browser says otherwise; an app opened with no signal says so now,
// so its queries wait for the signal (and refetch when it returns) instead of failing.
if (typeof navigator !== 'undefined') onlineManager.setOnline(navigator.onLine);
// ...and a request that meets no connection says so too, whatever the browser's flag says (offline/connectivity.ts).
if (typeof window !== 'undefined') followConnectivity();
