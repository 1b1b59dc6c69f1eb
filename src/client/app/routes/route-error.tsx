import { Component, useEffect, type ReactNode } from 'react';
import { Link } from '@/lib/router';
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
  const message = 'This page could not be loaded.';
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

interface BoundaryProps {
  children: ReactNode;
  /** The address on screen: moving to another one leaves the error screen for that page. */
  locationKey: string;
  retry?: () => void;
}

/**
 * Catches what a page throws while it renders (its code that would not load, a bug) and shows RouteError instead
 * of a blank screen; the layouts above stay. Cleared by the next navigation, so a link on the error screen works.
 */
export class RouteErrorBoundary extends Component<BoundaryProps, { failed: boolean; at: string }> {
  override state = { failed: false, at: this.props.locationKey };

  static getDerivedStateFromError() {
    return { failed: true };
  }

  static getDerivedStateFromProps(props: BoundaryProps, state: { failed: boolean; at: string }) {
    return props.locationKey === state.at ? null : { failed: false, at: props.locationKey };
  }

  override componentDidCatch(error: unknown) {
    console.error('The page failed to render', error);
  }

  override render() {
    return this.state.failed ? <RouteError retry={this.props.retry} /> : this.props.children;
  }
}
