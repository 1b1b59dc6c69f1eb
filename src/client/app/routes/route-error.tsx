import { isRouteErrorResponse, Link, useRouteError } from 'react-router';
import { PAGE_PATHS } from '../../../shared/routes';

/** Shown when a page fails to load (e.g. its code could not be fetched on a weak connection). */
export function RouteError() {
  const error = useRouteError();
  const message = isRouteErrorResponse(error) ? error.statusText : 'This page could not be loaded.';
  return (
    <main className="mx-auto max-w-lg space-y-4 p-8 text-center">
      <h1 className="text-2xl font-bold">Something went wrong</h1>
      <p>{message} Check your connection, then try again.</p>
      <div className="flex justify-center gap-4">
        <button type="button" className="font-medium text-primary underline" onClick={() => window.location.reload()}>
          Reload the page
        </button>
        <Link to={PAGE_PATHS.home} className="font-medium text-primary underline">
          Return to Home
        </Link>
      </div>
    </main>
  );
}
