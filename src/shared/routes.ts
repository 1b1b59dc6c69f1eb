/** Every page's path: the client's router and links, the server's 404 check and the prerender read them here. */
export const PAGE_PATHS = {
  home: '/',
  howItWorks: '/how-it-works',
  pricing: '/pricing',
  about: '/about',
  faq: '/faq',
  contact: '/contact',
  privacy: '/privacy',
  terms: '/terms',
  auth: '/auth',
  dashboard: '/dashboard',
  myRides: '/dashboard/rides',
  myRequests: '/dashboard/requests',
  browseRides: '/dashboard/browse-rides',
  browseRequests: '/dashboard/browse-requests',
  myBookings: '/dashboard/bookings',
} as const;

/** The auth page opened on its 'Sign Up' tab. */
export const SIGN_UP_PATH = `${PAGE_PATHS.auth}?tab=signup`;

const P = PAGE_PATHS;

/** Client routes the server knows, so unknown paths get a real 404 status while the SPA still renders its page. */
export const PUBLIC_PATHS = [P.home, P.howItWorks, P.pricing, P.about, P.faq, P.contact, P.privacy, P.terms, P.auth];

export const DASHBOARD_PATHS = [P.dashboard, P.myRides, P.myRequests, P.browseRides, P.browseRequests, P.myBookings];

export function isKnownClientPath(pathname: string): boolean {
  const path = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
  return (PUBLIC_PATHS as readonly string[]).includes(path) || (DASHBOARD_PATHS as readonly string[]).includes(path);
}
