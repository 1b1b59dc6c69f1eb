import {
  infiniteQueryOptions,
  queryOptions,
  useInfiniteQuery,
  useMutation,
  useQuery,
  useQueryClient,
  type QueryClient,
} from '@tanstack/react-query';
import type { Page } from '@shared/marketplace';
import { blockedPersonSchema, MODERATION_TEXT, type BlockedPerson } from '@shared/moderation';
import { api } from '@/lib/api-client';
import { toastMutationError } from '@/lib/mutation-errors';
import { fetchPage } from '@/lib/pagination';
import { queryKeys } from '@/lib/query-keys';
import { toastSuccess } from '@/lib/toast';

/** A blocked person keyed by their id, as lists key their rows. */
export type BlockedRow = BlockedPerson & { id: string };

const blockedPeopleQueryOptions = infiniteQueryOptions({
  queryKey: queryKeys.blockedList,
  queryFn: async ({ pageParam, signal }): Promise<Page<BlockedRow>> => {
    const page = await fetchPage('/blocks', blockedPersonSchema, pageParam, signal);
    return { ...page, items: page.items.map((item) => ({ ...item, id: item.user.id })) };
  },
  initialPageParam: null as string | null,
  getNextPageParam: (last) => last.next_cursor,
});

/** GET /blocks: the people I blocked, newest first (Settings, 'Blocked people'). */
export function useBlockedPeople() {
  return useInfiniteQuery(blockedPeopleQueryOptions);
}

/**
 * Everyone I blocked, as a set of ids: a person menu offers 'Unblock' for them. All pages are read (people block a
 * handful of others, so this is one request in practice), so the answer never depends on which page someone is on.
 */
async function fetchBlockedIds(signal?: AbortSignal): Promise<Set<string>> {
  const ids = new Set<string>();
  let cursor: string | null = null;
  do {
    const page: Page<BlockedPerson> = await fetchPage('/blocks', blockedPersonSchema, cursor, signal);
    for (const item of page.items) ids.add(item.user.id);
    cursor = page.next_cursor;
  } while (cursor);
  return ids;
}

const blockedIdsQueryOptions = queryOptions({
  queryKey: queryKeys.blockedIds,
  queryFn: ({ signal }) => fetchBlockedIds(signal),
  staleTime: 60_000,
});

export function useBlockedIds(enabled = true) {
  return useQuery({ ...blockedIdsQueryOptions, enabled });
}

/**
 * A block changes what both people see: Browse (their rides and requests leave it), requests and bookings (a
 * pending offer between us is declined), the conversation (it becomes read-only), and my list of blocked people.
 */
function refreshAfterBlockChange(queryClient: QueryClient) {
  return Promise.all(
    [
      queryKeys.blocks,
      queryKeys.rides,
      queryKeys.requests,
      queryKeys.bookings,
      queryKeys.messages,
      queryKeys.dashboard,
    ].map((queryKey) => queryClient.invalidateQueries({ queryKey })),
  );
}

/** POST /blocks {user_id}: 201, or 200 when already blocked. */
export function useBlock() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (userId: string) => api<unknown>('/blocks', { method: 'POST', body: { user_id: userId } }),
    onSuccess: () => toastSuccess(MODERATION_TEXT.blocked),
    onError: toastMutationError,
    onSettled: () => refreshAfterBlockChange(queryClient),
  });
}

/** DELETE /blocks/:userId: 204. */
export function useUnblock() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (userId: string) => api<void>(`/blocks/${encodeURIComponent(userId)}`, { method: 'DELETE' }),
    onSuccess: () => toastSuccess(MODERATION_TEXT.unblocked),
    onError: toastMutationError,
    onSettled: () => refreshAfterBlockChange(queryClient),
  });
}
