import {
  infiniteQueryOptions,
  useInfiniteQuery,
  useQuery,
  useQueryClient,
  type InfiniteData,
} from '@tanstack/react-query';
import { alongRoutePageSchema, type AlongRoutePage } from '../../../../shared/along-route';
import { pageSchema, rideSchema, type Page, type Ride } from '../../../../shared/marketplace';
import { alongRouteCountSchema } from '../../../../shared/places';
import { api } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';

const PAGE_SIZE = 20;
const path = (rideId: string) => `/rides/${encodeURIComponent(rideId)}/along-route`;

/** GET /rides/:id/along-route?corridor=: asked first, then by the detour; keyset pages. */
export function useAlongRoute(rideId: string, corridor: number) {
  return useInfiniteQuery(
    infiniteQueryOptions({
      queryKey: queryKeys.alongRouteList(rideId, corridor),
      queryFn: async ({ pageParam, signal }): Promise<AlongRoutePage> => {
        const params = new URLSearchParams({ corridor: String(corridor), limit: String(PAGE_SIZE) });
        if (pageParam) params.set('cursor', pageParam);
        return alongRoutePageSchema.parse(await api<unknown>(`${path(rideId)}?${params.toString()}`, { signal }));
      },
      initialPageParam: null as string | null,
      getNextPageParam: (last) => last.next_cursor,
    }),
  );
}

/**
 * GET /rides/:id/along-route/count, for the My Rides link. A ride typed as free text answers 409
 * route_needs_places, which the card words instead of a number.
 */
export function useAlongRouteCount(rideId: string) {
  return useQuery({
    queryKey: queryKeys.alongRouteCount(rideId),
    queryFn: async ({ signal }) =>
      alongRouteCountSchema.parse(await api<unknown>(`${path(rideId)}/count`, { signal })).count,
  });
}

const MINE_PAGE_SIZE = 50;

/** My ride from the My Rides list already loaded, if it holds it. */
function cachedRide(data: InfiniteData<Page<Ride>> | undefined, rideId: string) {
  return data?.pages.flatMap((p) => p.items).find((r) => r.id === rideId);
}

/**
 * The ride the along-route page is about, for its summary. There is no single-ride endpoint: the My Rides list
 * usually holds it (the page is opened from there); a link opened directly reads my rides page by page. Null when
 * it is not mine (the list itself then answers 404).
 */
export function useMyRide(rideId: string) {
  const queryClient = useQueryClient();
  return useQuery({
    queryKey: [...queryKeys.myRides, 'one', rideId],
    queryFn: async ({ signal }): Promise<Ride | null> => {
      const cached = cachedRide(queryClient.getQueryData(queryKeys.myRides), rideId);
      if (cached) return cached;
      let cursor: string | null = null;
      do {
        const params = new URLSearchParams({ limit: String(MINE_PAGE_SIZE) });
        if (cursor) params.set('cursor', cursor);
        const page = pageSchema(rideSchema).parse(await api<unknown>(`/rides/mine?${params.toString()}`, { signal }));
        const found = page.items.find((r) => r.id === rideId);
        if (found) return found;
        cursor = page.next_cursor;
      } while (cursor);
      return null;
    },
  });
}
