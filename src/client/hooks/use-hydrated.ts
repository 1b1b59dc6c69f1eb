import { useSyncExternalStore } from 'react';

const subscribe = () => () => {};

/**
 * False while React hydrates prerendered HTML (and while prerendering), true right after and in every render of a
 * page rendered in the browser. What depends on the browser (the session, stored data) waits for it, so the first
 * render matches the prerendered markup exactly (docs/decisions/004-prerender-public-pages.md).
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => true,
    () => false,
  );
}
