import { queryOptions, useQuery } from '@tanstack/react-query';
import { bookingDetailSchema } from '@shared/lifecycle';
import { api } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';

/** GET /bookings/:id: one booking as its driver or its requester sees it (anyone else: 404). */
async function fetchBookingDetail(id: string, signal?: AbortSignal) {
  return bookingDetailSchema.parse(await api<unknown>(`/bookings/${encodeURIComponent(id)}`, { signal }));
}

export const bookingDetailQueryOptions = (id: string) =>
  queryOptions({
    queryKey: queryKeys.bookingDetail(id),
    queryFn: ({ signal }) => fetchBookingDetail(id, signal),
  });

export function useBookingDetail(id: string) {
  return useQuery(bookingDetailQueryOptions(id));
}
