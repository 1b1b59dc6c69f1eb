import type { BookingRole } from '@shared/lifecycle';

/**
 * Query keys shared across features: a mutation in one feature invalidates lists owned by another (posting a ride
 * changes the dashboard's counts), and features must not import each other's internals. Keys nest, so
 * invalidating `requests` reaches every request list and request detail, `bookings` every booking list and detail.
 */
export const queryKeys = {
  rides: ['rides'] as const,
  myRides: ['rides', 'mine'] as const,
  browseRides: ['rides', 'browse'] as const,
  /** One ride (GET /rides/:id: the along-route page's summary); under `rides`, so posting or deleting reloads it. */
  rideDetail: (id: string) => ['rides', 'detail', id] as const,
  /**
   * A ride's 'Requests along this route', one list per corridor, and its count on My Rides. Not under
   * `requests`: an Accept there marks the card 'Offer sent' in place rather than reloading it away (the server leaves
   * requests I offered on out of the list).
   */
  alongRouteLists: ['along-route', 'list'] as const,
  alongRouteList: (rideId: string, corridor: number) => ['along-route', 'list', rideId, corridor] as const,
  alongRouteCounts: ['along-route', 'count'] as const,
  alongRouteCount: (rideId: string) => ['along-route', 'count', rideId] as const,
  /** My saved searches and route alerts (the Alerts page and My Rides' alert toggles). */
  savedSearches: ['saved-searches'] as const,
  requests: ['requests'] as const,
  myRequests: ['requests', 'mine'] as const,
  browseRequests: ['requests', 'browse'] as const,
  requestDetail: (id: string) => ['requests', 'detail', id] as const,
  bookings: ['bookings'] as const,
  myBookings: ['bookings', 'mine'] as const,
  myBookingsAs: (role: BookingRole) => ['bookings', 'mine', role] as const,
  bookingDetail: (id: string) => ['bookings', 'detail', id] as const,
  /** The review part of a booking page: under its detail, so whatever reloads the booking reloads it too. */
  bookingReviews: (id: string) => ['bookings', 'detail', id, 'reviews'] as const,
  dashboard: ['dashboard'] as const,
  messages: ['messages'] as const,
  /** One booking's conversation (an infinite query: pages of messages, newest page first). */
  conversation: (bookingId: string) => ['messages', 'conversation', bookingId] as const,
  conversations: ['messages', 'conversations'] as const,
  unread: ['messages', 'unread'] as const,
  /** The people I blocked: the Settings list and the set the person menus read. */
  blocks: ['blocks'] as const,
  blockedList: ['blocks', 'list'] as const,
  blockedIds: ['blocks', 'ids'] as const,
  adminReports: ['admin', 'reports'] as const,
  /** The moderators' dispute queue, 'Open' and 'Resolved'. */
  adminDisputes: ['admin', 'disputes'] as const,
  /** Profiles: a person's profile and their published reviews. */
  users: ['users'] as const,
  profile: (id: string) => ['users', id, 'profile'] as const,
  profileReviews: (id: string) => ['users', id, 'reviews'] as const,
  /** Notifications: the list, the bell's unread count, and the e-mail switches. */
  notifications: ['notifications'] as const,
  notificationList: ['notifications', 'list'] as const,
  notificationUnread: ['notifications', 'unread'] as const,
  notificationSettings: ['notification-settings'] as const,
  /** Payments: 'Paid', 'Earned' and its totals, receipts, payouts; completing or cancelling a booking reloads them. */
  payments: ['payments'] as const,
  paidList: ['payments', 'paid'] as const,
  earnedList: ['payments', 'earned'] as const,
  earnings: ['payments', 'earnings'] as const,
  credit: ['payments', 'credit'] as const,
  receipt: (id: string) => ['payments', 'receipt', id] as const,
  payoutSettings: ['payments', 'payouts'] as const,
  /** Settings > Plan (issue 38): my plan; a plan move reloads payments too (its charge is on 'Paid'). */
  plan: ['plan'] as const,
  /** The 'Paid' tab's plan payments: under payments, so a plan move's reload of payments reloads them. */
  planCharges: ['payments', 'plan-charges'] as const,
  adminPayments: ['admin', 'payments'] as const,
  /** The signed-in user (auth's sessionQueryKey): a name change reloads it. */
  session: ['auth', 'session'] as const,
  /** Account settings: my profile and my signed-in browsers. */
  account: ['account'] as const,
  accountProfile: ['account', 'profile'] as const,
  accountSessions: ['account', 'sessions'] as const,
  /** Settings' 'Try new features first' (Community's early access): read again by each page that gates a feature. */
  earlyAccess: ['account', 'early-access'] as const,
  /** Place suggestions for what was typed, folded: the gazetteer never changes while the app runs. */
  placeSuggestions: (q: string) => ['places', 'suggest', q] as const,
  /** One place by id (a Browse link's `near=`): its label for the Near field and 'Save this search'. */
  place: (id: number) => ['places', 'id', id] as const,
  /** Two-factor: on or off, recovery codes left; the re-check and delete dialogs read it too. */
  accountTwoFactor: ['account', 'two-factor'] as const,
  /** My ID check's state (Settings' 'Verification', the profile form's warning before a name change). */
  idCheck: ['account', 'id-check'] as const,
  /** The moderators' queue of ID checks waiting for a decision. */
  adminVerifications: ['admin', 'verifications'] as const,
  /** The support inbox: its 'Open' and 'Answered' lists under this key. */
  adminSupport: ['admin', 'support'] as const,
};
