import { useEffect } from 'react';
import { Outlet, useLocation } from '@/lib/router';
import { appNavigations } from '@/lib/navigations';
import { RouteErrorBoundary } from '../routes/route-error';
import { ScrollRestoration } from '../scroll-restoration';
import { ToasterHost } from '../toaster-host';

/** Above every page: the error screen a failing page falls back to, scroll positions, and the (lazily mounted) toaster. */
export function RootLayout() {
  const location = useLocation();
  // Marks when React has taken the page over (hydrated or rendered it): prerendered HTML is visible before that,
  // but its buttons do nothing yet.
  useEffect(() => {
    document.documentElement.dataset.ready = 'true';
  }, []);
  // The service worker applies a waiting update at a navigation (lib/service-worker.ts).
  useEffect(() => appNavigations.publish(location), [location]);
  return (
    <>
      <RouteErrorBoundary locationKey={location.key}>
        <Outlet />
      </RouteErrorBoundary>
      <ScrollRestoration />
      <ToasterHost />
    </>
  );
}
