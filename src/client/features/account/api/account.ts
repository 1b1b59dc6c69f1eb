import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import {
  accountProfileSchema,
  accountSessionsSchema,
  type ChangePasswordInput,
  type ProfileInput,
} from '@shared/account';
import { api } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';
import { toastApiError, toastSuccess } from '@/lib/toast';

/** The toasts of the account sections. */
export const ACCOUNT_TEXT = {
  profileUpdated: 'Profile updated',
  passwordChanged: 'Password changed',
  signedOut: 'Signed out',
  signedOutOthers: (count: number) => `Signed out of ${count} other ${count === 1 ? 'session' : 'sessions'}`,
} as const;

const accountProfileQueryOptions = queryOptions({
  queryKey: queryKeys.accountProfile,
  queryFn: async ({ signal }) => accountProfileSchema.parse(await api<unknown>('/account/profile', { signal })),
});

/** GET /account/profile: my name, 'About you' and e-mail address. */
export function useAccountProfile() {
  return useQuery(accountProfileQueryOptions);
}

/**
 * PATCH /account/profile. My name shows in many places (the session, my profile page, my rides, requests, bookings
 * and conversations), so every loaded query is refreshed; the form shows what the server saved at once.
 */
export function useUpdateProfile() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (input: ProfileInput) =>
      accountProfileSchema.parse(await api<unknown>('/account/profile', { method: 'PATCH', body: input })),
    onSuccess: (profile) => {
      queryClient.setQueryData(queryKeys.accountProfile, profile);
      toastSuccess(ACCOUNT_TEXT.profileUpdated);
      void queryClient.invalidateQueries();
    },
  });
}

/** POST /account/password -> 204. Every other session ends on success, so the sessions list is reloaded. */
export function useChangePassword() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: ChangePasswordInput) => api<void>('/account/password', { method: 'POST', body: input }),
    onSuccess: () => {
      toastSuccess(ACCOUNT_TEXT.passwordChanged);
      void queryClient.invalidateQueries({ queryKey: queryKeys.accountSessions });
    },
  });
}

const accountSessionsQueryOptions = queryOptions({
  queryKey: queryKeys.accountSessions,
  queryFn: async ({ signal }) => accountSessionsSchema.parse(await api<unknown>('/account/sessions', { signal })).items,
});

/** GET /account/sessions: my signed-in browsers, most recently active first. */
export function useAccountSessions() {
  return useQuery(accountSessionsQueryOptions);
}

/** DELETE /account/sessions/:id -> 204: that browser is signed out (a 404 means it already was). */
export function useSignOutSession() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api<void>(`/account/sessions/${encodeURIComponent(id)}`, { method: 'DELETE' }),
    onSuccess: () => toastSuccess(ACCOUNT_TEXT.signedOut),
    onError: (err) => toastApiError(err),
    onSettled: () => queryClient.invalidateQueries({ queryKey: queryKeys.accountSessions }),
  });
}

const signedOutCountSchema = z.object({ count: z.number().int().nonnegative() });

/** POST /account/sessions/sign-out-others -> { count }: every browser but this one is signed out. */
export function useSignOutOthers() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async () =>
      signedOutCountSchema.parse(await api<unknown>('/account/sessions/sign-out-others', { method: 'POST' })),
    onSuccess: ({ count }) => toastSuccess(ACCOUNT_TEXT.signedOutOthers(count)),
    onError: (err) => toastApiError(err),
    onSettled: () => queryClient.invalidateQueries({ queryKey: queryKeys.accountSessions }),
  });
}
