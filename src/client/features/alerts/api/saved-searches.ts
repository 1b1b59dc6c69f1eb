import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import {
  SAVED_SEARCH_LIMIT_MESSAGE,
  SEARCH_SAVED_TOAST,
  savedSearchListSchema,
  savedSearchSchema,
  type savedSearchInputSchema,
  type SavedSearch,
} from '@shared/places';
import { api, ApiError } from '@/lib/api-client';
import { toastMutationError } from '@/lib/mutation-errors';
import { queryKeys } from '@/lib/query-keys';
import { toastError, toastSuccess } from '@/lib/toast';

export type SavedSearchInput = z.input<typeof savedSearchInputSchema>;

export const EMAIL_ON_TOAST = 'Alert e-mails on';
export const EMAIL_OFF_TOAST = 'Alert e-mails off';
export const SEARCH_DELETED_TOAST = 'Alert deleted';
export const ROUTE_ALERT_ON_TOAST = 'Route alert on';
export const ROUTE_ALERT_ON_TEXT = "We'll tell you when someone posts a request along this route.";
export const ROUTE_ALERT_OFF_TOAST = 'Route alert off';

type List = { items: SavedSearch[] };

/** GET /saved-searches: my saved searches and route alerts, oldest first (read once by every ride card too). */
export function useSavedSearches() {
  return useQuery({
    queryKey: queryKeys.savedSearches,
    queryFn: async ({ signal }) => savedSearchListSchema.parse(await api<unknown>('/saved-searches', { signal })),
  });
}

/** The limit is a 400 with its own sentence: an 'Error' toast with it, not a 'Validation Error'. */
function toastSaveError(err: unknown) {
  if (err instanceof ApiError && err.message === SAVED_SEARCH_LIMIT_MESSAGE)
    return toastError('Error', SAVED_SEARCH_LIMIT_MESSAGE);
  toastMutationError(err);
}

/** POST /saved-searches { name, kind, filters }. */
export function useCreateSavedSearch() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (input: SavedSearchInput) =>
      savedSearchSchema.parse(await api<unknown>('/saved-searches', { method: 'POST', body: input })),
    onSuccess: () => {
      toastSuccess(SEARCH_SAVED_TOAST);
      return queryClient.invalidateQueries({ queryKey: queryKeys.savedSearches });
    },
    onError: toastSaveError,
  });
}

const withEmail = (id: string, email: boolean) => (old: List | undefined) =>
  old && { items: old.items.map((s) => (s.id === id ? { ...s, email } : s)) };

/**
 * PATCH /saved-searches/:id { email }: the switch moves at once; a failure puts it back (with its toast). Changes
 * go one after another (one scope), so the server applies them in the order they were made.
 */
export function useSetSearchEmail() {
  const queryClient = useQueryClient();
  return useMutation({
    scope: { id: 'saved-search-email' },
    mutationFn: ({ id, email }: { id: string; email: boolean }) =>
      api<unknown>(`/saved-searches/${encodeURIComponent(id)}`, { method: 'PATCH', body: { email } }),
    onMutate: async ({ id, email }) => {
      await queryClient.cancelQueries({ queryKey: queryKeys.savedSearches });
      queryClient.setQueryData(queryKeys.savedSearches, withEmail(id, email));
    },
    onSuccess: (_body, { email }) => toastSuccess(email ? EMAIL_ON_TOAST : EMAIL_OFF_TOAST),
    onError: (err, { id, email }) => {
      queryClient.setQueryData(queryKeys.savedSearches, withEmail(id, !email));
      toastMutationError(err);
    },
  });
}

/** DELETE /saved-searches/:id (a route alert too); the list reloads either way (a 404 means it is gone already). */
export function useDeleteSavedSearch() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api<void>(`/saved-searches/${encodeURIComponent(id)}`, { method: 'DELETE' }),
    onSuccess: () => toastSuccess(SEARCH_DELETED_TOAST),
    onError: toastMutationError,
    onSettled: () => queryClient.invalidateQueries({ queryKey: queryKeys.savedSearches }),
  });
}

/** POST (on) or DELETE (off) /rides/:id/alert: the ride's route alert, kept in the saved-search list. */
export function useSetRouteAlert(rideId: string) {
  const queryClient = useQueryClient();
  const path = `/rides/${encodeURIComponent(rideId)}/alert`;
  return useMutation({
    mutationFn: (on: boolean) => api<unknown>(path, { method: on ? 'POST' : 'DELETE' }),
    onSuccess: (_body, on) =>
      on ? toastSuccess(ROUTE_ALERT_ON_TOAST, ROUTE_ALERT_ON_TEXT) : toastSuccess(ROUTE_ALERT_OFF_TOAST),
    onError: toastSaveError,
    onSettled: () => queryClient.invalidateQueries({ queryKey: queryKeys.savedSearches }),
  });
}
