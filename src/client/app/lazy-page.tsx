import { lazy, type ComponentType } from 'react';

/** A route module: its page (or layout) component. */
export interface PageModule {
  Component: ComponentType;
}

/** A page whose code loads on demand; `preload` fetches it ahead of the render that needs it. */
export type LazyPage = ComponentType & { preload: () => Promise<void> };

/**
 * A page component whose code is its own chunk (docs/decisions/028-declarative-router-and-light-auth.md). Once its code has
 * arrived (`preload`, which the app awaits for the first page before hydrating, and the prerender before rendering)
 * it renders at once, with no suspension: the prerendered HTML hydrates without a mismatch and nothing flashes.
 * Before that it suspends like React.lazy; a navigation is a transition, so the page on screen stays until the
 * next one is ready. A failed preload is tried once more when the page renders (a weak signal may be back); if that
 * fails too, the route error screen (RouteErrorBoundary) offers 'Try again'.
 */
export function lazyPage(load: () => Promise<PageModule>): LazyPage {
  let loaded: ComponentType | undefined;
  let pending: Promise<void> | undefined;
  const preload = () =>
    (pending ??= load().then(
      (module) => {
        loaded = module.Component;
      },
      (error: unknown) => {
        pending = undefined;
        throw error;
      },
    ));
  const Suspending = lazy(() => preload().then(() => ({ default: loaded! })));
  function Page() {
    const Loaded = loaded;
    return Loaded ? <Loaded /> : <Suspending />;
  }
  return Object.assign(Page, { preload });
}
