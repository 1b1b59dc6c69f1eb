/**
 * Tiny bridge between toasts and the toaster, with no dependencies: the public pages' entry imports it without
 * pulling sonner in. The toaster is mounted (and its code fetched) only once something wants to show a toast.
 */
let onDemand = false;
let requested = false;
let ready = false;
const listeners = new Set<() => void>();
const waiting: (() => void)[] = [];

/**
 * Declares that the app mounts the toaster on demand (the root's ToasterHost does, when its module loads). Until
 * then toasts go straight to sonner, as they do in component tests that render a toaster themselves.
 */
export function mountToasterOnDemand(): void {
  onDemand = true;
}

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
  if (ready || !onDemand) return show();
  waiting.push(show);
  requestToaster();
}
