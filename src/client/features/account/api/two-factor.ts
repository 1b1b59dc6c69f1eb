import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  recoveryCodesSchema,
  TWO_FACTOR_TOASTS,
  twoFactorSetupSchema,
  twoFactorStatusSchema,
} from '@shared/two-factor';
import { api, ApiError } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';
import { toastSuccess } from '@/lib/toast';
import { useRecentCheck } from './security';

export const twoFactorStatusQueryOptions = queryOptions({
  queryKey: queryKeys.accountTwoFactor,
  queryFn: async ({ signal }) => twoFactorStatusSchema.parse(await api<unknown>('/account/two-factor', { signal })),
});

/** GET /account/two-factor: on or off, and how many recovery codes are left. */
export function useTwoFactorStatus({ enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({ ...twoFactorStatusQueryOptions, enabled });
}

/** POST /account/two-factor/setup (recent check) -> a new secret and its QR code; nothing is on yet. */
export function useStartTwoFactorSetup() {
  const queryClient = useQueryClient();
  const { withRecentCheck } = useRecentCheck();
  return useMutation({
    mutationFn: () =>
      withRecentCheck(async () =>
        twoFactorSetupSchema.parse(await api<unknown>('/account/two-factor/setup', { method: 'POST' })),
      ),
    // 409 `two_factor_state`: it was turned on meanwhile (another tab): show that.
    onError: (err) => {
      if (err instanceof ApiError && err.code === 'two_factor_state') {
        void queryClient.invalidateQueries({ queryKey: queryKeys.accountTwoFactor });
      }
    },
  });
}

/** POST /account/two-factor/enable { code } -> the recovery codes, shown once. */
export function useEnableTwoFactor() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (code: string) =>
      recoveryCodesSchema.parse(await api<unknown>('/account/two-factor/enable', { method: 'POST', body: { code } }))
        .recovery_codes,
    onSuccess: () => {
      toastSuccess(TWO_FACTOR_TOASTS.enabled);
      void queryClient.invalidateQueries({ queryKey: queryKeys.accountTwoFactor });
    },
  });
}

/** POST /account/two-factor/disable { code } (recent check) -> 204. */
export function useDisableTwoFactor() {
  const queryClient = useQueryClient();
  const { withRecentCheck } = useRecentCheck();
  return useMutation({
    mutationFn: (code: string) =>
      withRecentCheck(() => api<void>('/account/two-factor/disable', { method: 'POST', body: { code } })),
    onSuccess: () => {
      toastSuccess(TWO_FACTOR_TOASTS.disabled);
      void queryClient.invalidateQueries({ queryKey: queryKeys.accountTwoFactor });
    },
  });
}

/** POST /account/two-factor/recovery-codes (recent check) -> new codes; the old ones stop working. */
export function useNewRecoveryCodes() {
  const queryClient = useQueryClient();
  const { withRecentCheck } = useRecentCheck();
  return useMutation({
    mutationFn: () =>
      withRecentCheck(
        async () =>
          recoveryCodesSchema.parse(await api<unknown>('/account/two-factor/recovery-codes', { method: 'POST' }))
            .recovery_codes,
      ),
    onSuccess: () => {
      toastSuccess(TWO_FACTOR_TOASTS.newCodes);
      void queryClient.invalidateQueries({ queryKey: queryKeys.accountTwoFactor });
    },
  });
}
