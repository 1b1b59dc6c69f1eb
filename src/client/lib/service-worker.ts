import type { Location } from '@/lib/router';
import type { Navigations } from './navigations';

/**
 * The app's side of the service worker (docs/decisions/022-service-worker.md). A new version of the app installs in
 * the background and waits; at the next in-app navigation the page tells it to take over and loads the new version
 * at the URL being opened, then says 'RuralRoute was updated.' once. So a page never runs old code against a newer
 * API, nor asks for old chunks a newer worker no longer keeps.
 */

/** Set across the reload that applies an update, so the new version toasts once. */
export const UPDATED_FLAG = 'rr-updated';
/** How often, at most, an in-app navigation asks the server for a new worker (a page may stay open for days). */
const CHECK_EVERY_MS = 10 * 60 * 1000;
/** The reload happens anyway if the new worker never reports taking over. */
const TAKE_OVER_TIMEOUT_MS = 3000;

const hrefOf = (to: Location) => `${to.pathname}${to.search}${to.hash}`;

/** The toast of an update that has just been applied (the toaster loads only when it has something to say). */
export async function announceUpdate(storage: Storage = sessionStorage): Promise<void> {
  if (storage.getItem(UPDATED_FLAG) === null) return;
  storage.removeItem(UPDATED_FLAG);
  const { toastSuccess } = await import('./toast');
  toastSuccess('RuralRoute was updated.');
}

/**
 * Follows the app's navigations: when a new version waits (or another tab already switched this page's worker), the
 * page just opened is loaded anew at its URL under the new version. `load` is the browser's location.assign.
 */
export function applyUpdatesOnNavigation(
  registration: ServiceWorkerRegistration,
  container: ServiceWorkerContainer,
  navigations: Navigations,
  load: (href: string) => void = (href) => window.location.assign(href),
  now: () => number = Date.now,
): () => void {
  let seen = navigations.current?.key;
  let lastCheck = now();
  let applying = false;
  // Set when a new worker took over while this page runs the old version (another tab applied the update).
  let outdated = false;
  const hadController = container.controller !== null;
  const onControllerChange = () => {
    if (hadController) outdated = true;
  };
  container.addEventListener('controllerchange', onControllerChange);

  const reloadInto = (href: string) => {
    applying = true;
    sessionStorage.setItem(UPDATED_FLAG, '1');
    const waiting = registration.waiting;
    if (!waiting) return load(href);
    const go = () => {
      clearTimeout(timer);
      load(href);
    };
    const timer = setTimeout(go, TAKE_OVER_TIMEOUT_MS);
    container.addEventListener('controllerchange', go, { once: true });
    waiting.postMessage({ type: 'SKIP_WAITING' });
  };

  const unsubscribe = navigations.subscribe((to) => {
    if (to.key === seen || applying) return;
    seen = to.key;
    if (registration.waiting || outdated) return reloadInto(hrefOf(to));
    if (now() - lastCheck >= CHECK_EVERY_MS) {
      lastCheck = now();
      // Offline or a server hiccup: the next navigation asks again.
      registration.update().catch(() => {});
    }
  });
  return () => {
    unsubscribe();
    container.removeEventListener('controllerchange', onControllerChange);
  };
}

/** Registers the worker (production builds only: the dev server has none) and follows the app's navigations. */
export async function startServiceWorker(navigations: Navigations): Promise<void> {
  if (!('serviceWorker' in navigator)) return;
  void announceUpdate();
  try {
    // Some environments (an automation setting, a browser extension) answer without a registration.
    const registration = (await navigator.serviceWorker.register('/sw.js', { scope: '/' })) as
      ServiceWorkerRegistration | undefined;
    if (registration) applyUpdatesOnNavigation(registration, navigator.serviceWorker, navigations);
  } catch {
    // Refused (a private window, a browser setting): the app works online as it did before.
  }
}
