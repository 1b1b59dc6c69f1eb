import { infiniteQueryOptions, useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { alongRoutePageSchema, type AlongRoutePage } from '@shared/along-route';
import { rideSchema } from '@shared/marketplace';
import { alongRouteCountSchema } from '@shared/places';
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

/**
 * GET /rides/:id: the ride the along-route page is about, for its summary (the server answers a driver's own ride in
 * any state; the page shows the list only for one's own).
 */
export function useRide(rideId: string) {
  return useQuery({
    queryKey: queryKeys.rideDetail(rideId),
    queryFn: async ({ signal }) =>
      rideSchema.parse(await api<unknown>(`/rides/${encodeURIComponent(rideId)}`, { signal })),
  });
}
