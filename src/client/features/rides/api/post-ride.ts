import type { z } from 'zod';
import type { Ride, rideInputSchema } from '@shared/marketplace';
import { useCreateItem } from '@/lib/item-mutations';
import { queryKeys } from '@/lib/query-keys';

type RideValues = z.output<ReturnType<typeof rideInputSchema>>;

/** POST /rides */
export function usePostRide() {
  return useCreateItem<RideValues, Ride>({
    path: '/rides',
    created: 'Ride posted successfully',
    refreshes: [queryKeys.rides, queryKeys.dashboard],
    describe: (ride) => `Post ride ${ride.origin} → ${ride.destination}`,
  });
}
