import { z } from 'zod';

/**
 * Every status a ride, a delivery request or a booking can have: the API contracts, the database's CHECK
 * constraints and the client's badges all read them from here.
 */
export const rideStatusSchema = z.enum(['active', 'cancelled', 'completed']);
/** 'deleted' is a soft delete (docs/decisions/005-request-soft-delete.md); such requests are never listed. */
export const requestStatusSchema = z.enum(['open', 'closed', 'deleted']);
export const bookingStatusSchema = z.enum(['pending', 'confirmed', 'completed', 'cancelled']);

export type RideStatus = z.infer<typeof rideStatusSchema>;
export type RequestStatus = z.infer<typeof requestStatusSchema>;
export type BookingStatus = z.infer<typeof bookingStatusSchema>;

export const RIDE_STATUSES = rideStatusSchema.options;
export const REQUEST_STATUSES = requestStatusSchema.options;
export const BOOKING_STATUSES = bookingStatusSchema.options;
