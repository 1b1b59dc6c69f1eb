import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { EARLY_ACCESS_FEATURES, EARLY_ACCESS_TEXT, type EarlyAccessFeatureId } from '@shared/early-access';
import { earlyAccessViewSchema, type EarlyAccessView } from '@shared/early-access-api';
import { api } from '@/lib/api-client';
import { toastMutationError } from '@/lib/mutation-errors';
import { queryKeys } from '@/lib/query-keys';
import { toastSuccess } from '@/lib/toast';

const PATH = '/account/early-access';

/**
 * GET /account/early-access: whether early-access features are on for me (Community and the switch on), the switch
 * as saved, and whether my plan has it. Read afresh by each page that asks (a plan move elsewhere may have changed it).
 */
export function useEarlyAccess() {
  return useQuery({
    queryKey: queryKeys.earlyAccess,
    queryFn: async ({ signal }) => earlyAccessViewSchema.parse(await api<unknown>(PATH, { signal })),
  });
}

/** Whether an early-access feature shows for me; false while the answer is loading or failed (the page goes on without it). */
export function useEarlyFeature(feature: EarlyAccessFeatureId): boolean {
  const on = useEarlyAccess().data?.on === true;
  // Every listed feature follows the one switch; the id names the call sites to remove when it graduates.
  return on && Object.hasOwn(EARLY_ACCESS_FEATURES, feature);
}

const withSwitch = (on: boolean) => (old: EarlyAccessView | undefined) => old && { ...old, on, saved: on };

/** PUT /account/early-access {on}: the switch moves at once and moves back if the server refuses. */
export function useSetEarlyAccess() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (on: boolean) =>
      earlyAccessViewSchema.parse(await api<unknown>(PATH, { method: 'PUT', body: { on } })),
    onMutate: async (on) => {
      await client.cancelQueries({ queryKey: queryKeys.earlyAccess });
      const before = client.getQueryData<EarlyAccessView>(queryKeys.earlyAccess);
      client.setQueryData(queryKeys.earlyAccess, withSwitch(on));
      return { before };
    },
    onSuccess: (view) => {
      client.setQueryData(queryKeys.earlyAccess, view);
      toastSuccess(view.on ? EARLY_ACCESS_TEXT.on : EARLY_ACCESS_TEXT.off);
    },
    onError: (err, _on, context) => {
      client.setQueryData(queryKeys.earlyAccess, context?.before);
      toastMutationError(err);
    },
  });
}
