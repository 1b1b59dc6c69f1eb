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
  /** 'Forgot password?' (asks for the e-mail) and the e-mailed link's 'Choose a new password'. */
  forgotPassword: '/auth/forgot-password',
  resetPassword: '/auth/reset-password',
  /** The new address's confirmation link (works signed in or out). */
  confirmEmail: '/confirm-email',
  dashboard: '/dashboard',
  myRides: '/dashboard/rides',
  myRequests: '/dashboard/requests',
  browseRides: '/dashboard/browse-rides',
  browseRequests: '/dashboard/browse-requests',
  myBookings: '/dashboard/bookings',
  messages: '/dashboard/messages',
  settings: '/dashboard/settings',
  /** The list of my notifications, and the e-mail switch of each type. */
  notifications: '/dashboard/notifications',
  notificationSettings: '/dashboard/settings/notifications',
  /** My plan (issue 38): Free, Plus or Community, and upgrading, switching or cancelling it. */
  planSettings: '/dashboard/settings/plan',
  /** The one-click unsubscribe page of an e-mail's link (no sign-in; the token says who and which type). */
  unsubscribe: '/unsubscribe',
  /** The sign-up confirmation link of an e-mail address (works signed in or out). */
  verifyEmail: '/verify-email',
  /** My saved searches and route alerts. */
  alerts: '/dashboard/settings/alerts',
  /** 'Payments': the 'Paid' and 'Earned' tabs; a payment's receipt. */
  payments: '/dashboard/payments',
  receipt: '/dashboard/payments/:id/receipt',
  /** Admins only; everyone else gets the 404 page. */
  adminReports: '/dashboard/admin/reports',
  adminPayments: '/dashboard/admin/payments',
  adminDisputes: '/dashboard/admin/disputes',
  adminVerifications: '/dashboard/admin/verifications',
  /** The support inbox: the contact form's messages and 'Reply' (issue 38). */
  adminSupport: '/dashboard/admin/support',
  /** Router patterns; links use requestDetailPath(), bookingDetailPath() and profilePath(). */
  requestDetail: '/dashboard/requests/:id',
  bookingDetail: '/dashboard/bookings/:id',
  profile: '/dashboard/users/:id',
  /** A ride's 'Requests along this route' (its driver only). */
  alongRoute: '/dashboard/rides/:id/along-route',
} as const;

/** A payment's printable receipt. */
export const receiptPath = (paymentId: string) => `/dashboard/payments/${encodeURIComponent(paymentId)}/receipt`;

/** The auth page opened on its 'Sign Up' tab. */
export const SIGN_UP_PATH = `${PAGE_PATHS.auth}?tab=signup`;

/**
 * Prerendered pages with a second version for one query value (docs/decisions/004-prerender-public-pages.md): the
 * build writes it beside the page as `index.<name>-<value>.html`, and the server sends it for `?<name>=<value>`
 * (the page's own HTML for any other address). The page must choose what it shows by the same test.
 */
export const PRERENDERED_VARIANTS = [{ path: PAGE_PATHS.auth, name: 'tab', value: 'signup' }] as const;
export type PrerenderedVariant = (typeof PRERENDERED_VARIANTS)[number];
export const variantFileName = (v: { name: string; value: string }) => `index.${v.name}-${v.value}.html`;

/** My Bookings opened on its 'As requester' tab ('As driver' is the default, without a query). */
export const MY_BOOKINGS_AS_REQUESTER_PATH = `${PAGE_PATHS.myBookings}?tab=requester`;

export const requestDetailPath = (id: string) => `${PAGE_PATHS.myRequests}/${encodeURIComponent(id)}`;
export const bookingDetailPath = (id: string) => `${PAGE_PATHS.myBookings}/${encodeURIComponent(id)}`;
export const alongRoutePath = (rideId: string) => `${PAGE_PATHS.myRides}/${encodeURIComponent(rideId)}/along-route`;
/** A person's profile. */
export const profilePath = (userId: string) => `/dashboard/users/${encodeURIComponent(userId)}`;

const P = PAGE_PATHS;

/** Client routes the server knows, so unknown paths get a real 404 status while the SPA still renders its page. */
export const PUBLIC_PATHS = [
  P.home,
  P.howItWorks,
  P.pricing,
  P.about,
  P.faq,
  P.contact,
  P.privacy,
  P.terms,
  P.auth,
  P.forgotPassword,
  P.resetPassword,
  P.confirmEmail,
  P.verifyEmail,
  P.unsubscribe,
];

export const DASHBOARD_PATHS = [
  P.dashboard,
  P.myRides,
  P.myRequests,
  P.browseRides,
  P.browseRequests,
  P.myBookings,
  P.messages,
  P.settings,
  P.notifications,
  P.notificationSettings,
  P.planSettings,
  P.alerts,
  P.payments,
  P.adminReports,
  P.adminPayments,
  P.adminDisputes,
  P.adminVerifications,
  P.adminSupport,
];

/** Pages with an id in their path; the server knows them for ids that are uuids (the API's ids). */
export const DETAIL_PATHS = [P.requestDetail, P.bookingDetail, P.profile, P.alongRoute, P.receipt];

const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';
const DETAIL_PATTERNS = DETAIL_PATHS.map((p) => new RegExp(`^${p.replace(':id', UUID)}$`, 'i'));

export function isKnownClientPath(pathname: string): boolean {
  const path = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
  return (
    (PUBLIC_PATHS as readonly string[]).includes(path) ||
    (DASHBOARD_PATHS as readonly string[]).includes(path) ||
    DETAIL_PATTERNS.some((pattern) => pattern.test(path))
  );
}
