/**
 * Query keys shared across features: a mutation in one feature invalidates lists owned by another (posting a ride
 * changes the dashboard's counts), and features must not import each other's internals.
 */
export const queryKeys = {
  rides: ['rides'] as const,
  myRides: ['rides', 'mine'] as const,
  browseRides: ['rides', 'browse'] as const,
  requests: ['requests'] as const,
  myRequests: ['requests', 'mine'] as const,
  browseRequests: ['requests', 'browse'] as const,
  bookings: ['bookings'] as const,
  myBookings: ['bookings', 'mine'] as const,
  dashboard: ['dashboard'] as const,
};
