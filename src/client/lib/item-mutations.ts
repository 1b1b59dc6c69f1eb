import { useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { toastDeleteError, toastMutationError } from './mutation-errors';
import { sendQueue } from '../offline/send-queue';
import { toastSuccess } from './toast';

function refresh(queryClient: QueryClient, keys: readonly (readonly string[])[]) {
  return Promise.all(keys.map((queryKey) => queryClient.invalidateQueries({ queryKey })));
}

/**
 * POST `path` with the form's values: the spec's success toast, then the lists in `refreshes` reload. With no
 * signal the post waits in the send queue ('Waiting to send', under `describe`'s name) and is sent when it returns.
 */
export function useCreateItem<Input, Item>({
  path,
  created,
  refreshes,
  describe,
}: {
  path: string;
  created: string;
  refreshes: readonly (readonly string[])[];
  describe: (input: Input) => string;
}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: Input) =>
      sendQueue.send<Item>({
        label: describe(input),
        method: 'POST',
        path,
        body: input,
        sentToast: { title: created },
        refresh: [...refreshes],
      }),
    onSuccess: () => {
      toastSuccess(created);
      return refresh(queryClient, refreshes);
    },
    onError: toastMutationError,
  });
}

/**
 * DELETE `${path}/:id` with the spec's toasts. The lists reload after a failure too: a 404 means the item is
 * already gone, and the list should say so. With no signal the delete waits in the send queue under `label`.
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
    mutationFn: ({ id, label }: { id: string; label: string }) =>
      sendQueue.send<void>({
        label,
        method: 'DELETE',
        path: `${path}/${encodeURIComponent(id)}`,
        sentToast: { title: deleted },
        refresh: [...refreshes],
      }),
    onSuccess: () => toastSuccess(deleted),
    onError: (err) => toastDeleteError(err, failed),
    onSettled: () => refresh(queryClient, refreshes),
  });
}
