import { useMutation, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import {
  EMAIL_CHANGED_TOAST,
  EMAIL_LINK_HOURS,
  pendingEmailSchema,
  type AccountProfile,
  type ChangeEmailInput,
} from '@shared/account';
import { api, ApiError } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';
import { toastApiError, toastSuccess } from '@/lib/toast';

/** The toasts of Settings 'Email' (the same whether or not the new address is free: nothing tells them apart). */
export const EMAIL_TEXT = {
  checkInbox: 'Check your new inbox',
  linkSent: (address: string) =>
    `We sent a link to ${address}. Open it within ${EMAIL_LINK_HOURS} hours to finish the change.`,
  cancelled: 'Email change cancelled',
} as const;

/** Writes the pending address into the loaded profile, so the card shows it without another load. */
function usePendingEmail() {
  const queryClient = useQueryClient();
  return (pending: string | null) =>
    queryClient.setQueryData<AccountProfile>(queryKeys.accountProfile, (old) =>
      old ? { ...old, pending_email: pending } : old,
    );
}

/** POST /account/email -> 202 { pending_email }: the link goes to the new address; the card waits for it. */
export function useChangeEmail() {
  const setPending = usePendingEmail();
  return useMutation({
    mutationFn: async (input: ChangeEmailInput) =>
      pendingEmailSchema.parse(await api<unknown>('/account/email', { method: 'POST', body: input })),
    onSuccess: ({ pending_email }) => {
      setPending(pending_email);
      toastSuccess(EMAIL_TEXT.checkInbox, EMAIL_TEXT.linkSent(pending_email));
    },
  });
}

/** DELETE /account/email -> 204: the link sent to the new address stops working. */
export function useCancelEmailChange() {
  const setPending = usePendingEmail();
  return useMutation({
    mutationFn: () => api<void>('/account/email', { method: 'DELETE' }),
    onSuccess: () => {
      setPending(null);
      toastSuccess(EMAIL_TEXT.cancelled);
    },
    onError: (err) => toastApiError(err),
  });
}

const confirmedSchema = z.object({ email: z.string() });

/** The server's answer to an expired, used or unknown confirmation link. */
export const isEmailLinkExpired = (err: unknown) =>
  err instanceof ApiError && (err.code === 'email_link_expired' || err.code === 'validation_error');

/**
 * POST /auth/confirm-email { token } -> { email }. Works signed out too; when this browser is signed in to the
 * account, everything loaded (the session's address, the Settings card) is reloaded.
 */
export function useConfirmEmail() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (token: string) =>
      confirmedSchema.parse(await api<unknown>('/auth/confirm-email', { method: 'POST', body: { token } })),
    onSuccess: () => {
      toastSuccess(EMAIL_CHANGED_TOAST);
      void queryClient.invalidateQueries();
    },
  });
}
