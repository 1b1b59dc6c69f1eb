/**
 * Tiny bridge between toasts and the toaster, with no dependencies: the public pages' entry imports it without
 * pulling sonner in. The toaster is mounted (and its code fetched) only once something wants to show a toast.
 */
let requested = false;
let ready = false;
const listeners = new Set<() => void>();
const waiting: (() => void)[] = [];

export function requestToaster(): void {
  if (requested) return;
  requested = true;
  listeners.forEach((l) => l());
}

export function subscribeToToasterRequest(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function toasterRequested(): boolean {
  return requested;
}

/** Called by the toaster once it listens: toasts asked for before then are shown now, in order. */
export function markToasterReady(): void {
  requested = true;
  ready = true;
  waiting.splice(0).forEach((show) => show());
}

/** Runs `show` now if a toaster listens, else as soon as one does (mounting it if needed). */
export function whenToasterReady(show: () => void): void {
  if (ready) return show();
  waiting.push(show);
  requestToaster();
}
