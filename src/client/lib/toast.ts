import { ApiError } from './api-error';
import { whenToasterReady } from './toaster-signal';

type Toast = typeof import('sonner').toast;
let sonner: Promise<Toast> | undefined;

/**
 * sonner is imported with the first toast, not with this module: the pages that may toast then do not carry it in
 * their first scripts (8 KB compressed on the dashboard's critical path). The toaster, mounted by then, has already
 * loaded it, so this resolves at once; toasts keep their order (each waits on the same promise).
 */
function show(toastWith: (toast: Toast) => void) {
  whenToasterReady(() => {
    sonner ??= import('sonner').then((m) => m.toast);
    void sonner.then(toastWith);
  });
}

/** The spec's toasts: a title and a description. */
export function toastSuccess(title: string, description?: string) {
  show((toast) => toast.success(title, { description }));
}

export function toastError(title: string, description?: string) {
  show((toast) => toast.error(title, { description }));
}

/** One place that turns a failed call into the spec's destructive 'Error' toast with the server's message. */
export function toastApiError(err: unknown, fallback = 'Something went wrong. Please try again.') {
  const message = err instanceof ApiError ? err.message : fallback;
  toastError('Error', message);
}

/**
 * A form's failed submit (sign-up): a server-side validation failure is the spec's 'Validation Error'; anything
 * else, a 429 included, is 'Error' with the server's own message (its attempt limit says how long to wait).
 * Not in mutation-errors.ts, which brings the marketplace schemas into the /auth page's scripts.
 */
export function toastSubmitError(err: unknown) {
  if (err instanceof ApiError && err.code === 'validation_error') return toastError('Validation Error', err.message);
  toastApiError(err);
}
