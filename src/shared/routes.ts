/** Client routes the server knows, so unknown paths get a real 404 status while the SPA still renders its page. */
export const PUBLIC_PATHS = [
  '/',
  '/how-it-works',
  '/pricing',
  '/about',
  '/faq',
  '/contact',
  '/privacy',
  '/terms',
  '/auth',
] as const;

export const DASHBOARD_PATHS = [
  '/dashboard',
  '/dashboard/rides',
  '/dashboard/requests',
  '/dashboard/browse-rides',
  '/dashboard/browse-requests',
  '/dashboard/bookings',
] as const;

export function isKnownClientPath(pathname: string): boolean {
  const path = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
  return (PUBLIC_PATHS as readonly string[]).includes(path) || (DASHBOARD_PATHS as readonly string[]).includes(path);
}
