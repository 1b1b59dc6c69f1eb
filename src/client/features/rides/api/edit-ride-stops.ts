import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { rideSchema, type Ride, type rideStopsSchema } from '@shared/marketplace';
import { STOPS_TEXT } from '@shared/plans';
import { toastMutationError } from '@/lib/mutation-errors';
import { queryKeys } from '@/lib/query-keys';
import { toastSuccess } from '@/lib/toast';
import { sendQueue } from '@/offline/send-queue';

type Stops = z.output<typeof rideStopsSchema>;

/** The rides' lists and pages, and what lies along their routes: the legs changed. */
const REFRESH = [queryKeys.rides, queryKeys.alongRouteLists, queryKeys.alongRouteCounts];

/**
 * PUT /rides/:id/stops { stops }: the ride's stops replaced (Plus and Community). With no signal the change waits in
 * the send queue ('Waiting to send') and is sent when the signal returns; the rides' lists reload once it is sent.
 */
export function useEditRideStops(ride: Pick<Ride, 'id' | 'origin' | 'destination'>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (stops: Stops) =>
      sendQueue
        .send<unknown>({
          label: `${STOPS_TEXT.edit}: ${ride.origin} → ${ride.destination}`,
          method: 'PUT',
          path: `/rides/${encodeURIComponent(ride.id)}/stops`,
          body: { stops },
          sentToast: { title: STOPS_TEXT.saved },
          refresh: REFRESH,
        })
        .then((body) => rideSchema.parse(body)),
    onSuccess: async () => {
      toastSuccess(STOPS_TEXT.saved);
      await Promise.all(REFRESH.map((queryKey) => client.invalidateQueries({ queryKey })));
    },
    onError: toastMutationError,
  });
}
