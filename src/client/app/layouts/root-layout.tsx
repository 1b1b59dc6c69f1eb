import { Outlet, ScrollRestoration } from 'react-router';
import { ToasterHost } from '../toaster-host';

/** Above every page: scroll position on navigation and the (lazily mounted) toaster. */
export function RootLayout() {
  return (
    <>
      <Outlet />
      <ScrollRestoration />
      <ToasterHost />
    </>
  );
}
