/**
 * Fetches the code of the pages at a path before going there, so a navigation that follows a long wait (signing in)
 * shows the next page at once. The router registers how (app/router.tsx); a feature asks through this module, which
 * keeps features from importing the route table that imports them.
 */
let preloader: (pathname: string) => Promise<void> = () => Promise.resolve();

export function setPagePreloader(load: (pathname: string) => Promise<void>): void {
  preloader = load;
}

/** Settles once the code is in, or failed to come (the navigation then shows the route error screen, as always). */
export function preloadPage(pathname: string): Promise<void> {
  return preloader(pathname).catch(() => undefined);
}
