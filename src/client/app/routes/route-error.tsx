import { useEffect } from 'react';
import { isRouteErrorResponse, Link, useRouteError } from 'react-router';
import { PageMeta } from '@/components/page-meta';
import { buttonVariants } from '@/components/ui/button-variants';
import { PAGE_PATHS } from '@shared/routes';

/** Loads the page again: its code and data are fetched anew (the service worker answers for the app's files). */
const reloadPage = () => window.location.reload();

/**
 * Shown when a page fails to load (e.g. its code could not be fetched on a weak connection). 'Try again' loads it
 * again, and so does the signal coming back ('online'), so nobody is left on this screen once they have signal.
 */
export function RouteError({ retry = reloadPage }: { retry?: () => void }) {
  const error = useRouteError();
  const message = isRouteErrorResponse(error) ? error.statusText : 'This page could not be loaded.';
  useEffect(() => {
    window.addEventListener('online', retry);
    return () => window.removeEventListener('online', retry);
  }, [retry]);
  return (
    <main className="mx-auto max-w-lg space-y-4 p-8 text-center">
      <PageMeta title="Something went wrong — RuralRoute" />
      <h1 className="text-2xl font-bold">Something went wrong</h1>
      <p>
        {message} Check your connection, then try again.
        {typeof navigator !== 'undefined' && !navigator.onLine
          ? ' It will load by itself when you are back online.'
          : ''}
      </p>
      <div className="flex items-center justify-center gap-4">
        {/* The button's look without its component: this page is in the app's entry, which tailwind-merge stays out of. */}
        <button type="button" className={buttonVariants()} onClick={retry}>
          Try again
        </button>
        <Link to={PAGE_PATHS.home} className="font-medium text-primary underline">
          Return to Home
        </Link>
      </div>
    </main>
  );
}
