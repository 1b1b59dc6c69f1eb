import { useQuery } from '@tanstack/react-query';
import { EARLY_ACCESS_FEATURES, type EarlyAccessFeatureId } from '@shared/early-access';
import { earlyAccessViewSchema } from '@shared/early-access-api';
import { api } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';

export const EARLY_ACCESS_PATH = '/account/early-access';

/**
 * GET /account/early-access (Community's early access, decision 035): whether early-access features are on for me
 * (Community and the switch on), the switch as saved, and whether my plan has it. Read afresh by each page that asks
 * (a plan move elsewhere may have changed it). Here rather than in features/early-access, so a page that gates a
 * feature does not load the Settings card's code with it.
 */
export function useEarlyAccess() {
  return useQuery({
    queryKey: queryKeys.earlyAccess,
    queryFn: async ({ signal }) => earlyAccessViewSchema.parse(await api<unknown>(EARLY_ACCESS_PATH, { signal })),
  });
}

/**
 * Whether an early-access feature shows for me: false while the answer loads or when it failed (the page goes on
 * without the feature). Every listed feature follows the one switch; the id names the call sites to remove when the
 * feature graduates (decision 035).
 */
export function useEarlyFeature(feature: EarlyAccessFeatureId): boolean {
  const on = useEarlyAccess().data?.on === true;
  return on && Object.hasOwn(EARLY_ACCESS_FEATURES, feature);
}
