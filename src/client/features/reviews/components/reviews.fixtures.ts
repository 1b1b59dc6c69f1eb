import type { BookingReviews, Review } from '@shared/reviews';
import { ADA, SAM, uuid } from '@/test/factories';

/** For tests: Ada Field's (the requester's) published review of Sam Lee (the driver), without a reply. */
export function makeReview(over: Partial<Review> = {}): Review {
  return {
    id: uuid(),
    booking_id: uuid(),
    rating: 4,
    comment: 'On time and careful with the sacks.',
    reviewer: ADA,
    reviewer_role: 'requester',
    reviewee: SAM,
    created_at: '2026-05-05T10:00:00.000Z',
    published_at: '2026-05-06T10:00:00.000Z',
    reply: null,
    ...over,
  };
}

/** For tests: an open review period (closing May 15, 2026 at noon UTC) in which nobody has reviewed yet. */
export function makeBookingReviews(over: Partial<BookingReviews> = {}): BookingReviews {
  return {
    state: 'open',
    closes_at: '2026-05-15T12:00:00.000Z',
    mine: null,
    theirs: null,
    other_reviewed: false,
    ...over,
  };
}
