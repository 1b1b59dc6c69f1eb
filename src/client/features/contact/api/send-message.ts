import { useMutation } from '@tanstack/react-query';
import { CONTACT_TOASTS, type ContactMessageInput, type ContactReceipt } from '@shared/contact';
import { api } from '@/lib/api-client';
import { toastApiError, toastSuccess } from '@/lib/toast';

function sendContactMessage(input: ContactMessageInput) {
  return api<ContactReceipt>('/contact', { method: 'POST', body: input });
}

/** POST /api/contact. Success toasts here; any failure (validation, rate limit, network) is the 'Error' toast. */
export function useSendContactMessage(onSent: () => void) {
  return useMutation({
    mutationFn: sendContactMessage,
    onSuccess: () => {
      toastSuccess(CONTACT_TOASTS.successTitle, CONTACT_TOASTS.successDescription);
      onSent();
    },
    onError: (err) => toastApiError(err),
  });
}
