import type { Location } from '@/lib/router';

/** The app's navigations as they happen: what the service worker follows to apply an update (lib/service-worker.ts). */
export interface Navigations {
  /** The location on screen (undefined before the app has rendered). */
  readonly current: Location | undefined;
  subscribe(listener: (to: Location) => void): () => void;
}

export function createNavigations(): Navigations & { publish(to: Location): void } {
  const listeners = new Set<(to: Location) => void>();
  let current: Location | undefined;
  return {
    get current() {
      return current;
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
    publish(to) {
      if (to.key === current?.key) return;
      current = to;
      for (const listener of listeners) listener(to);
    },
  };
}

/** The app's own, published by RootLayout at every location it renders. */
export const appNavigations = createNavigations();
