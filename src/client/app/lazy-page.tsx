import { lazy, type ComponentType } from 'react';

/** A route module: its page (or layout) component. */
export interface PageModule {
  Component: ComponentType;
}

/**
 * tailwind-merge (src/client/lib/utils.ts): a page renders once it has loaded, so its `cn()` class lists are merged
 * from the first render (and a prerendered page hydrates with the classes the prerender gave it). The pages and
 * layouts given `classMerger: false` render without waiting: the dashboard's first screen (its class lists are
 * conflict-free, so unmerged they are the same: src/client/app/first-screen-classes.test.tsx proves it) and the
 * marketing pages (the same, and they never load it). Its chunk failing to load (a weak signal) stops nothing: the
 * page renders with its classes joined unmerged, which changes some looks, rather than the route's error screen; the
 * next page tries again.
 */
export const loadClassMerger = (): Promise<void> =>
  import('@/lib/class-merger').then(
    () => undefined,
    () => undefined,
  );

/** A page whose code loads on demand; `preload` fetches it ahead of the render that needs it. */
export type LazyPage = ComponentType & {
  preload: () => Promise<void>;
  /** Whether it waits for tailwind-merge before it renders (see loadClassMerger). */
  classMerger: boolean;
};

/**
 * A page component whose code is its own chunk (docs/decisions/028-declarative-router-and-light-auth.md). Once its code has
 * arrived (`preload`, which the app awaits for the first page before hydrating, and the prerender before rendering)
 * it renders at once, with no suspension: the prerendered HTML hydrates without a mismatch and nothing flashes.
 * Before that it suspends like React.lazy; a navigation is a transition, so the page on screen stays until the
 * next one is ready. A failed preload is tried once more when the page renders (a weak signal may be back); if that
 * fails too, the route error screen (RouteErrorBoundary) offers 'Try again'. It waits for the class merger too,
 * unless told otherwise (see loadClassMerger).
 */
export function lazyPage(load: () => Promise<PageModule>, { classMerger = true } = {}): LazyPage {
  let loaded: ComponentType | undefined;
  let pending: Promise<void> | undefined;
  const preload = () =>
    (pending ??= Promise.all([load(), classMerger && loadClassMerger()]).then(
      ([module]) => {
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
  return Object.assign(Page, { preload, classMerger });
}
