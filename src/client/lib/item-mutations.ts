import { useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { api } from './api-client';
import { toastDeleteError, toastMutationError } from './mutation-errors';
import { toastSuccess } from './toast';

function refresh(queryClient: QueryClient, keys: readonly (readonly string[])[]) {
  return Promise.all(keys.map((queryKey) => queryClient.invalidateQueries({ queryKey })));
}

/** POST `path` with the form's values: the spec's success toast, then the lists in `refreshes` reload. */
export function useCreateItem<Input, Item>({
  path,
  created,
  refreshes,
}: {
  path: string;
  created: string;
  refreshes: readonly (readonly string[])[];
}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: Input) => api<Item>(path, { method: 'POST', body: input }),
    onSuccess: () => {
      toastSuccess(created);
      return refresh(queryClient, refreshes);
    },
    onError: toastMutationError,
  });
}

/**
 * DELETE `${path}/:id` with the spec's toasts. The lists reload after a failure too: a 404 means the item is
 * already gone, and the list should say so.
 */
export function useDeleteItem({
  path,
  deleted,
  failed,
  refreshes,
}: {
  path: string;
  deleted: string;
  failed: string;
  refreshes: readonly (readonly string[])[];
}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api<void>(`${path}/${encodeURIComponent(id)}`, { method: 'DELETE' }),
    onSuccess: () => toastSuccess(deleted),
    onError: (err) => toastDeleteError(err, failed),
    onSettled: () => refresh(queryClient, refreshes),
  });
}
