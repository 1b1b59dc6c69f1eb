import { toast } from 'sonner';
import { ApiError } from './api-client';
import { whenToasterReady } from './toaster-signal';

/** The spec's toasts: a title and a description. */
export function toastSuccess(title: string, description?: string) {
  whenToasterReady(() => toast.success(title, { description }));
}

export function toastError(title: string, description?: string) {
  whenToasterReady(() => toast.error(title, { description }));
}

/** One place that turns a failed call into the spec's destructive 'Error' toast with the server's message. */
export function toastApiError(err: unknown, fallback = 'Something went wrong. Please try again.') {
  const message = err instanceof ApiError ? err.message : fallback;
  toastError('Error', message);
}
