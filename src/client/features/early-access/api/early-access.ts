import { useMutation, useQueryClient } from '@tanstack/react-query';
import { EARLY_ACCESS_TEXT } from '@shared/early-access';
import { earlyAccessViewSchema, type EarlyAccessView } from '@shared/early-access-api';
import { EARLY_ACCESS_PATH } from '@/hooks/use-early-access';
import { api } from '@/lib/api-client';
import { toastMutationError } from '@/lib/mutation-errors';
import { queryKeys } from '@/lib/query-keys';
import { toastSuccess } from '@/lib/toast';

const withSwitch = (on: boolean) => (old: EarlyAccessView | undefined) => old && { ...old, on, saved: on };

/** PUT /account/early-access {on}: the switch moves at once and moves back if the server refuses. */
export function useSetEarlyAccess() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (on: boolean) =>
      earlyAccessViewSchema.parse(await api<unknown>(EARLY_ACCESS_PATH, { method: 'PUT', body: { on } })),
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
