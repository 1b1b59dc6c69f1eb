import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@/lib/router';
import { ACCOUNT_DELETED_TOAST, type DeleteAccountInput } from '@shared/account';
import { PAGE_PATHS } from '@shared/routes';
import { api, apiResponse } from '@/lib/api-client';
import { forgetSignedInPerson } from '@/lib/signed-out';
import { toastSuccess } from '@/lib/toast';
import { useRecentCheck } from './security';

/** Hands a file to the browser's downloads (recovery codes, my data): a link to an object URL, clicked once. */
export function saveFile(blob: Blob, filename: string) {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  link.hidden = true;
  document.body.append(link);
  link.click();
  link.remove();
  // Some browsers read the URL after click() returns: let go of it on the next turn.
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

const FALLBACK_NAME = 'ruralroute-data.json';

/** The file name of `Content-Disposition: attachment; filename="..."` (or RFC 5987's filename*=UTF-8''...). */
export function filenameOf(disposition: string | null): string {
  if (!disposition) return FALLBACK_NAME;
  const encoded = /filename\*\s*=\s*UTF-8''([^;]+)/i.exec(disposition)?.[1];
  if (encoded) {
    try {
      return decodeURIComponent(encoded.trim());
    } catch {
      // A malformed name: fall through to the plain one.
    }
  }
  const plain = /filename\s*=\s*"?([^";]+)"?/i.exec(disposition)?.[1]?.trim();
  // Only a name, never a path.
  return plain ? (plain.split(/[/\\]/).pop() ?? FALLBACK_NAME) : FALLBACK_NAME;
}

/** GET /account/export (recent check): everything stored about me, saved as the server's JSON file. */
export function useDownloadMyData() {
  const { withRecentCheck } = useRecentCheck();
  return useMutation({
    mutationFn: () =>
      withRecentCheck(async () => {
        const res = await apiResponse('/account/export');
        const filename = filenameOf(res.headers.get('Content-Disposition'));
        saveFile(new Blob([await res.text()], { type: 'application/json' }), filename);
        return filename;
      }),
  });
}

/**
 * POST /account/delete -> 204: the account is gone and the session cookie cleared. Everything loaded is forgotten
 * (as on 'Sign Out'), the home page opens and the toast says what happened.
 */
export function useDeleteAccount() {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  return useMutation({
    mutationFn: (input: DeleteAccountInput) => api<void>('/account/delete', { method: 'POST', body: input }),
    onSuccess: () => {
      navigate(PAGE_PATHS.home);
      forgetSignedInPerson(queryClient);
      toastSuccess(ACCOUNT_DELETED_TOAST);
    },
  });
}
