import { z } from 'zod';

/**
 * Every status a ride, a delivery request or a booking can have: the API contracts, the database's CHECK
 * constraints and the client's badges all read them from here.
 */
export const rideStatusSchema = z.enum(['active', 'cancelled', 'completed']);
/**
 * open -> matched (a booking confirmed) -> completed; matched -> open again when that booking is cancelled.
 * 'deleted' is a soft delete (docs/decisions/005-request-soft-delete.md); such requests are never listed.
 * The lifecycle is in src/shared/lifecycle.ts.
 */
export const requestStatusSchema = z.enum(['open', 'matched', 'completed', 'deleted']);
export const bookingStatusSchema = z.enum(['pending', 'confirmed', 'completed', 'declined', 'cancelled']);

export type RideStatus = z.infer<typeof rideStatusSchema>;
export type RequestStatus = z.infer<typeof requestStatusSchema>;
export type BookingStatus = z.infer<typeof bookingStatusSchema>;

export const RIDE_STATUSES = rideStatusSchema.options;
export const REQUEST_STATUSES = requestStatusSchema.options;
export const BOOKING_STATUSES = bookingStatusSchema.options;
