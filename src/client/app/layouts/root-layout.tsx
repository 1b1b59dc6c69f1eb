import { useEffect } from 'react';
import { Outlet, ScrollRestoration } from 'react-router';
import { ToasterHost } from '../toaster-host';

/** Above every page: scroll position on navigation and the (lazily mounted) toaster. */
export function RootLayout() {
  // Marks when React has taken the page over (hydrated or rendered it): prerendered HTML is visible before that,
  // but its buttons do nothing yet.
  useEffect(() => {
    document.documentElement.dataset.ready = 'true';
  }, []);
  return (
    <>
      <Outlet />
      <ScrollRestoration />
      <ToasterHost />
    </>
  );
}
