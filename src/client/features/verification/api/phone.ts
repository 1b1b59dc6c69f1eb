import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { phoneStateSchema, type PhoneCodeInput, type PhoneInput, type PhoneState } from '@shared/verification';
import { api } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';
import { toastSuccess } from '@/lib/toast';

/** Under queryKeys.account, so what reloads the account's data reloads this too. */
export const phoneQueryKey = [...queryKeys.account, 'phone'] as const;

export const PHONE_TEXT = {
  codeSent: 'Code sent',
  codeSentTo: (phone: string) => `We sent a 6-digit code to ${phone}. It works for 10 minutes.`,
  verified: 'Phone number verified',
  removed: 'Phone number removed',
} as const;

/** GET /account/phone: my verified number and the code waiting, if any. */
export function usePhoneState() {
  return useQuery({
    queryKey: phoneQueryKey,
    queryFn: async ({ signal }) => phoneStateSchema.parse(await api<unknown>('/account/phone', { signal })),
  });
}

/** Keeps the card on the server's latest answer without another load. */
function useSetPhoneState() {
  const client = useQueryClient();
  return (state: PhoneState) => client.setQueryData(phoneQueryKey, state);
}

/** POST /account/phone { phone } -> 202: a code is on its way by SMS (it replaces any code waiting). */
export function useSendPhoneCode() {
  const setState = useSetPhoneState();
  return useMutation({
    mutationFn: async (input: PhoneInput) =>
      phoneStateSchema.parse(await api<unknown>('/account/phone', { method: 'POST', body: input })),
    onSuccess: (state) => {
      setState(state);
      if (state.pending) toastSuccess(PHONE_TEXT.codeSent, PHONE_TEXT.codeSentTo(state.pending.phone));
    },
  });
}

/** POST /account/phone/confirm { code } -> my number is verified. */
export function useConfirmPhone() {
  const client = useQueryClient();
  const setState = useSetPhoneState();
  return useMutation({
    mutationFn: async (input: PhoneCodeInput) =>
      phoneStateSchema.parse(await api<unknown>('/account/phone/confirm', { method: 'POST', body: input })),
    onSuccess: (state) => {
      setState(state);
      toastSuccess(PHONE_TEXT.verified);
      // My profile's checks (and the 'Verified' badge) changed.
      void client.invalidateQueries({ queryKey: queryKeys.session });
    },
  });
}

/** DELETE /account/phone -> 204: my number and 'Phone verified' go. */
export function useRemovePhone() {
  const client = useQueryClient();
  const setState = useSetPhoneState();
  return useMutation({
    mutationFn: () => api<void>('/account/phone', { method: 'DELETE' }),
    onSuccess: () => {
      setState({ phone: null, verified_at: null, pending: null });
      toastSuccess(PHONE_TEXT.removed);
      void client.invalidateQueries({ queryKey: queryKeys.session });
    },
  });
}
